import type { SeedObject } from '../../src/sandbox/index.js';

export const KEY_A = 'key_a_all_0123456789';
export const KEY_A_READ = 'key_a_read_0123456789';
export const KEY_A_EXPIRED = 'key_a_expired_0123456789';
export const KEY_B = 'key_b_all_0123456789';
export const KEY_U = 'key_u_unverified_0123';
export const KEY_R = 'key_r_ratelimited_012';
export const KEY_USAGE_ONLY = 'key_a_usage_only_0123';

const ALL = ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] as const;

export const TEST_SEED: SeedObject = {
  organisations: [
    {
      id: 'org_a',
      name: 'A',
      couriers: [
        { code: 'A-BIKE', name: 'A bikes' },
        { code: 'A-VAN', name: 'A vans' },
      ],
      keys: [
        { key: KEY_A, scopes: [...ALL], expires_at: 1893456000 },
        { key: KEY_A_READ, scopes: ['deliveries:read'] },
        { key: KEY_A_EXPIRED, scopes: [...ALL], expires_at: 1_000_000_000 },
        { key: KEY_USAGE_ONLY, scopes: ['usage:read'] },
      ],
    },
    { id: 'org_b', name: 'B', couriers: [{ code: 'B-BIKE', name: 'B bikes' }], keys: [{ key: KEY_B, scopes: [...ALL] }] },
    { id: 'org_u', name: 'U', verified: false, couriers: [{ code: 'U-1', name: 'U one' }], keys: [{ key: KEY_U, scopes: [...ALL] }] },
    {
      id: 'org_r',
      name: 'R',
      couriers: [{ code: 'R-1', name: 'R one' }],
      keys: [{ key: KEY_R, scopes: [...ALL] }],
      rate_limit: { requests: 3, window_s: 60 },
    },
  ],
  rate_limit: { requests: 100_000, window_s: 60 },
};

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
