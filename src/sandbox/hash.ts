import * as crypto from 'node:crypto';

// crypto.hash (one-shot, no Hash object) exists from Node 20.12; fall back to createHash before that.
const oneShot = (crypto as { hash?: (alg: string, data: string | Buffer, enc: 'buffer') => Buffer }).hash;

export function sha256(text: string | Buffer): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
}
