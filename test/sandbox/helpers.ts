import { KEY_A } from '../helpers/seed.js';

// The one seed lives in test/helpers/seed.ts; sandbox tests keep importing its names from here.
export { KEY_A, KEY_A_EXPIRED, KEY_A_READ, KEY_B, KEY_R, KEY_U, KEY_USAGE_ONLY, TEST_SEED } from '../helpers/seed.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // The parsed envelope; tests read arbitrary fields from it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience: response bodies are asserted field by field
  body: any;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent verbatim instead of JSON.stringify(body). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  idem?: string;
  contentType?: string | null;
}

let counter = 0;
/** A fresh Idempotency-Key. */
export function newKey(): string {
  return `test-key-${process.pid}-${Date.now()}-${++counter}`;
}

export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEY_A : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
  if (opts.idem !== undefined) headers['idempotency-key'] = opts.idem;
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export const nowS = (): number => Math.floor(Date.now() / 1000);

export const PARCEL = { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '10' };

export async function createParcel(base: string, extra: Record<string, unknown> = {}, key = KEY_A): Promise<Reply> {
  return call(base, 'POST', '/deliveries/v1/parcels', { key, body: { ...PARCEL, ...extra }, idem: newKey() });
}
