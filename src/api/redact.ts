/** Fixed-width mask: never reveals a secret's length. */
export const REDACTED = '***REDACTED***';

/** Replaces every whole occurrence of `secret` (for our own text, e.g. trace lines of requests). */
export function redactExact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join(REDACTED) : text;
}

/** Shortest run of the key that counts as leaking it: shorter runs occur by chance in ordinary text. */
export const MIN_LEAK_LENGTH = 8;

/**
 * Where a key's secret part starts: after its last "_" or "-" (`sk_live_`, `sbx_demo_` name the
 * kind of key and appear in docs and error codes), unless that leaves fewer than 8 characters.
 */
function secretStart(key: string): number {
  const start = Math.max(key.lastIndexOf('_'), key.lastIndexOf('-')) + 1;
  return key.length - start >= MIN_LEAK_LENGTH ? start : 0;
}

/**
 * Replaces the key, and every run of 8 or more characters copied from it that reaches into its
 * secret part, with a fixed-width mask. Applied to every text that came from the server before
 * anything else sees it. A key shorter than 8 characters is masked only where it appears whole.
 * Empty keys change nothing.
 */
export function redactKey(text: string, key: string | undefined): string {
  if (!key) return text;
  if (key.length < MIN_LEAK_LENGTH) return redactExact(text, key);
  const spans = leakedSpans(text, key, secretStart(key));
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/** Sorted, merged [start, end) ranges of `text` that are runs of `key` of at least MIN_LEAK_LENGTH reaching `secretFrom`. */
function leakedSpans(text: string, key: string, secretFrom: number): [number, number][] {
  const found: [number, number][] = [];
  // Every leaked run begins with one of the key's 8-character grams; native indexOf keeps a large
  // body that leaks nothing cheap to check.
  for (let k = 0; k + MIN_LEAK_LENGTH <= key.length; k++) {
    const gram = key.slice(k, k + MIN_LEAK_LENGTH);
    for (let p = text.indexOf(gram); p !== -1; p = text.indexOf(gram, p + 1)) {
      let length = MIN_LEAK_LENGTH;
      while (k + length < key.length && p + length < text.length && text[p + length] === key[k + length]) length++;
      if (k + length > secretFrom) found.push([p, p + length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  return merged;
}

/** A key for display: eight stars and the last four characters; keys of four characters or fewer are fully masked. */
export function maskKey(key: string): string {
  if (key.length <= 4) return '********';
  return `********${key.slice(-4)}`;
}
