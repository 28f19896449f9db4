import { hash } from 'node:crypto';

export function sha256(text: string | Buffer): Buffer {
  return hash('sha256', text, 'buffer');
}

/** SHA-1 in base64url: a short fingerprint of a representation (ETags), not a secret. */
export function sha1Base64url(text: string): string {
  return hash('sha1', text, 'base64url');
}

/** A v4-shaped UUID derived from `text`: the same text gives the same id (scenario steps, seed parcels). */
export function derivedUuid(text: string): string {
  const h = hash('sha256', text, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16] as string, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
