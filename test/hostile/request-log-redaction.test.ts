/**
 * Finding 7 of issue 29: the request log kept a key written `%5F…` or `\u005f…`, or cut in two by
 * the 8 KiB body limit; and its redaction (a SHA-256 per key-shaped run) ran on every request. Now
 * an entry is redacted once, on its first read, over the text and its decoded form (decodeKeyText),
 * the query string and the header values too, and a body is never cut inside a key.
 */
import { describe, expect, it } from 'vitest';
import { LogRedactor } from '../../src/sandbox/redact.js';
import type { LogInput } from '../../src/sandbox/requestlog.js';
import { RequestLog, keepBody } from '../../src/sandbox/requestlog.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { decodeKeyText } from '../../src/schemas/key-text.js';
import { KEY_A, KEY_B, TEST_SEED, call } from '../sandbox/helpers.js';

const ADMIN = 'redaction-admin-token-0001';
/** Every character of a text percent-encoded, or `\u`-escaped. */
const percent = (s: string): string => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
const unicode = (s: string): string => [...s].map((c, i) => (i % 4 === 3 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

describe('the request log keeps no key in any encoding, nor half of one', () => {
  it('percent-encoded in the path and query, \\u-escaped in a body, in a header, and across the 8 KiB cut', async () => {
    const s = await startSandbox({ seed: TEST_SEED, db: ':memory:', adminToken: ADMIN });
    try {
      await call(s.url, 'GET', `/deliveries/v1/parcels/${percent(KEY_B)}?cursor=${percent(ADMIN)}&courier=${KEY_B.replace('_', '%5F')}`);
      await call(s.url, 'GET', '/account/v1/couriers', { headers: { 'x-note': `sent ${KEY_B}`, 'x-other': percent(ADMIN) } });
      await call(s.url, 'POST', '/deliveries/v1/parcels', { raw: `{"courier":"${unicode(KEY_B)}","country":"NL","postal_code":"1234AB","number":"${unicode(ADMIN)}"}`, idem: 'redact-encodings-0001' });
      // A key that straddles the cut: its first 12 characters before byte 8192, the rest after.
      const lead = `{"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"`;
      const straddling = `${lead}${' '.repeat(8192 - lead.length - 12)}${KEY_B}"}`;
      await call(s.url, 'POST', '/deliveries/v1/parcels', { raw: straddling, idem: 'redact-straddle-0001' });

      const logs = await call(s.url, 'GET', '/_sandbox/v1/logs?bodies=true', { key: ADMIN });
      const text = JSON.stringify(logs.body);
      for (const view of [text, decodeKeyText(text), decodeKeyText(decodeKeyText(text))]) {
        for (const secret of [KEY_A, KEY_B, ADMIN]) expect(view).not.toContain(secret);
        expect(view).not.toContain(KEY_B.slice(0, 12));
      }
      const entries = logs.body.data.entries as { path: string; query: string | null; query_params: Record<string, string>; headers: Record<string, string>; request_body?: unknown }[];
      expect(entries[0]?.path).toBe('/deliveries/v1/parcels/[redacted]');
      expect(entries[0]?.query).toBe('cursor=[redacted]&courier=[redacted]');
      expect(entries[0]?.query_params).toEqual({ cursor: '[redacted]', courier: '[redacted]' });
      expect(entries[1]?.headers['x-note']).toBe('sent [redacted]');
      expect(entries[1]?.headers['x-other']).toBe('[redacted]');
      expect(entries[1]?.headers.authorization).toBeUndefined();
      expect(entries[2]?.request_body).toEqual({ courier: '[redacted]', country: 'NL', postal_code: '1234AB', number: '[redacted]' });
      expect(entries[3]?.request_body).toBe(`${lead}${' '.repeat(8192 - lead.length - 12)}… (${KEY_B.length + 2} more bytes)`);
    } finally {
      await s.close();
    }
  });

  it('a key as a query parameter\'s name or a JSON body\'s name is redacted; `__proto__` there stays a plain field', async () => {
    const s = await startSandbox({ seed: TEST_SEED, db: ':memory:', adminToken: ADMIN });
    try {
      await call(s.url, 'GET', `/account/v1/couriers?${encodeURIComponent(KEY_B)}=1&__proto__=x&a=${percent(KEY_B)}&a=2`, { headers: { 'idempotency-key': `k-${KEY_B}` } });
      await call(s.url, 'POST', '/deliveries/v1/parcels', { raw: `{"__proto__":{"polluted":"yes"},"${KEY_B}":{"n":"\\u006b${KEY_B.slice(1)}"}}`, idem: 'redact-names-0001' });
      const [get, post] = s.logs({ bodies: true });
      expect(get?.query_params).toEqual({ '[redacted]': '1', ['__proto__']: 'x', a: ['[redacted]', '2'] });
      expect(Object.hasOwn(get?.query_params ?? {}, '__proto__')).toBe(true);
      expect(get?.headers?.['idempotency-key']).toBe('k-[redacted]');
      expect(Object.keys(post?.request_body as object)).toEqual(['__proto__', '[redacted]']);
      expect(JSON.stringify(post?.request_body)).toBe('{"__proto__":{"polluted":"yes"},"[redacted]":{"n":"[redacted]"}}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(s.logs({ idempotencyKey: 'k-[redacted]' }).map((e) => e.seq)).toEqual([1]);
    } finally {
      await s.close();
    }
  });

  it('redaction runs off the request path: never when an entry is added, once when it is first read', () => {
    let calls = 0;
    const redactor = new LogRedactor([KEY_A], new Set());
    const counting = Object.assign(Object.create(redactor) as LogRedactor, { text: (t: string) => (calls++, redactor.text(t)) });
    const log = new RequestLog(counting);
    const entry = (): LogInput => ({
      atMs: 0, arrivedWallMs: 0, method: 'GET', path: `/p/${KEY_A}`, query: '', rawHeaders: ['Host', 'localhost'], route: null, org: null, authorization: null,
      status: 200, code: null, replay: false, latency_ms: 1, fault: null, requestBody: undefined, responseBody: keepBody('{"data":{}}'),
    });
    for (let i = 0; i < 100; i++) log.add(entry());
    expect(calls).toBe(0);
    expect(log.entries(0, true).map((e) => e.path)).toEqual(Array(100).fill('/p/[redacted]'));
    const once = calls;
    expect(once).toBeGreaterThan(0);
    log.entries(0, true);
    log.entries(50, false);
    expect(calls).toBe(once);
  });
});
