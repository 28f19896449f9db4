import * as crypto from 'node:crypto';

// crypto.hash (one-shot, no Hash object) exists from Node 20.12; fall back to createHash before that.
const oneShot = (crypto as { hash?: <E extends 'buffer' | 'base64url'>(alg: string, data: string | Buffer, enc: E) => E extends 'buffer' ? Buffer : string }).hash;

export function sha256(text: string | Buffer): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
}

/** SHA-1 in base64url: a short fingerprint of a representation (ETags), not a secret. */
export function sha1Base64url(text: string): string {
  return oneShot ? oneShot('sha1', text, 'base64url') : crypto.createHash('sha1').update(text).digest('base64url');
}
