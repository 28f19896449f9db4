/** Fixed-width mask: never reveals a secret's length. */
export const REDACTED = '***REDACTED***';

/** Replaces every occurrence of `secret` in `text` with a fixed-width mask. Empty secrets change nothing. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join(REDACTED);
}

/** A key for display: eight stars and the last four characters; keys of four characters or fewer are fully masked. */
export function maskKey(key: string): string {
  if (key.length <= 4) return '********';
  return `********${key.slice(-4)}`;
}
