/**
 * What the request log keeps of a request's texts, and how they are shown: every text a key could
 * be in (path, query, each decoded query parameter, header values, bodies, a JSON body's every name
 * and string) goes through the log's one redaction (redact.ts) before anyone reads it.
 */
import type { JsonValue } from '../schemas/sandbox-admin.js';
import type { LogRedactor } from './redact.js';

/** Bytes of each body kept per entry at most (the rest is cut with a note), so the log stays bounded. */
const BODY_BYTES = 8192;

/** A body as the log keeps it: whole when small, else its first bytes (a copy, so the big original is not held) and how many more there were. */
export type KeptBody = { whole: Buffer | string } | { head: Buffer | string; more: number };

/** Bytes a key may be written with, escaped or not (`sk_x`, `sk%5Fx`, `sk\u005fx`): see redact.ts. */
function keyByte(byte: number | undefined): boolean {
  return byte !== undefined && /[A-Za-z0-9._~%\\-]/.test(String.fromCharCode(byte));
}

/**
 * Where a long body is cut: at BODY_BYTES, moved back to the start of a run of key bytes that the
 * cut would split, so the kept head never ends with the first part of a key.
 */
function cutAt(bytes: Buffer): number {
  let cut = BODY_BYTES;
  if (!keyByte(bytes[cut])) return cut;
  while (cut > 0 && keyByte(bytes[cut - 1])) cut--;
  return cut;
}

/** Keeps a body for the log; small bodies (the usual case) by reference, without a copy. */
export function keepBody(body: Buffer | string | undefined): KeptBody | undefined {
  if (body === undefined) return undefined;
  // A string of at most BODY_BYTES / 4 characters is at most BODY_BYTES bytes of UTF-8.
  if (body.length <= (typeof body === 'string' ? BODY_BYTES / 4 : BODY_BYTES)) return { whole: body };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (bytes.length <= BODY_BYTES) return { whole: body };
  const cut = cutAt(bytes);
  return { head: Buffer.from(bytes.subarray(0, cut)), more: bytes.length - cut };
}

/**
 * A whole body that is JSON as its value; any other body, and a cut one, as text (a cut body with its
 * note). The text is redacted before it is parsed: a key can hide from the redaction's search only
 * in escapes it decodes as well (`\u006b…`, redact.ts), so no string of the value holds one.
 * JSON.parse makes a name like `__proto__` a plain field.
 */
export function shownBody(kept: KeptBody, r: LogRedactor): JsonValue {
  if ('head' in kept) return `${r.text(kept.head.toString('utf8'))}… (${kept.more} more bytes)`;
  const text = r.text(kept.whole.toString());
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** The header list as an object, Authorization left out (the entry says only whether it was sent), each value redacted. */
export function shownHeaders(raw: readonly string[], r: LogRedactor): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name === 'authorization') continue;
    const value = r.text(raw[i + 1] as string);
    Object.defineProperty(headers, name, { value: Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value, enumerable: true, writable: true, configurable: true });
  }
  return headers;
}

/** The query decoded (URLSearchParams: `%xx` and `+`), each name and value redacted; a repeated name holds the list of its values. */
export function shownQuery(query: string, r: LogRedactor): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [rawName, rawValue] of new URLSearchParams(query)) {
    const name = r.text(rawName);
    const value = r.text(rawValue);
    const had = Object.hasOwn(params, name) ? params[name] : undefined;
    if (Array.isArray(had)) had.push(value);
    else Object.defineProperty(params, name, { value: had === undefined ? value : [had, value], enumerable: true, writable: true, configurable: true });
  }
  return params;
}
