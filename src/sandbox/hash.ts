import { hash } from 'node:crypto';

export function sha256(text: string | Buffer): Buffer {
  return hash('sha256', text, 'buffer');
}

/** SHA-1 in base64url: a short fingerprint of a representation (ETags), not a secret. */
export function sha1Base64url(text: string): string {
  return hash('sha1', text, 'base64url');
}
