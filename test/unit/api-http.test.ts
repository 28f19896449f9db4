import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dryRunRecorder } from '../../src/api/dry-run.js';
import { shellQuote } from '../../src/hint/shell.js';
import { ApiClient } from '../../src/api/http.js';
import { backoffDelay, parseRetryAfter } from '../../src/api/core/policy.js';
import type { ApiClientOptions } from '../../src/api/http.js';
import { ApiError, CancelledError, DryRunComplete, NetworkError } from '../../src/errors.js';

const KEY = 'sk_live_TOPSECRET_0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  remotePort: number | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, n: number) => void;

const servers: Server[] = [];
const clients: ApiClient[] = [];

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, remotePort: req.socket.remotePort });
      handler(req, res, body, seen.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function client(url: string, extra: Partial<ApiClientOptions> = {}): { client: ApiClient; sleeps: number[]; trace: string[] } {
  const sleeps: number[] = [];
  const trace: string[] = [];
  // An injected clock that the fake sleep drives, so Retry-After waits are exact.
  let clock = Date.now();
  const c = new ApiClient({
    baseUrl: url,
    apiKey: KEY,
    timeoutMs: 2000,
    retries: 3,
    userAgent: 'parcels-test/1.0',
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    random: () => 0.5,
    trace: (line) => trace.push(line),
    ...extra,
  });
  clients.push(c);
  return { client: c, sleeps, trace };
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe('ApiClient basics', () => {
  it('sends bearer, accept, user agent; parses envelope and ETag; reuses the connection', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: { entry_id: 'abc' } }, { etag: '"v1"' }));
    const { client: c } = client(url);
    const first = await c.request({ method: 'GET', path: '/deliveries/v1/parcels/abc', query: { limit: 5, cursor: undefined, x: true } });
    const second = await c.request({ method: 'GET', path: '/deliveries/v1/parcels/abc' });
    for (let i = 0; i < 8; i++) await c.request({ method: 'GET', path: '/deliveries/v1/parcels/abc' });
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ entry_id: 'abc' });
    expect(first.body).toEqual({ data: { entry_id: 'abc' } });
    expect(first.etag).toBe('"v1"');
    expect(first.attempts).toBe(1);
    expect(second.attempts).toBe(1);
    expect(seen[0]?.url).toBe('/deliveries/v1/parcels/abc?limit=5&x=true');
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0]?.headers.accept).toBe('application/json');
    expect(seen[0]?.headers['user-agent']).toBe('parcels-test/1.0');
    expect(seen[0]?.headers['content-type']).toBeUndefined();
    // Keep-alive: ten sequential requests share one or two sockets (undici's pool may open a
    // second one while the first is still marked busy for a tick).
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it('keeps a base path prefix', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: {} }));
    const { client: c } = client(`${url}/api/`);
    await c.request({ method: 'GET', path: '/account/v1/overview' });
    expect(seen[0]?.url).toBe('/api/account/v1/overview');
  });

  it('refuses absolute or protocol-relative paths (the key stays with the base URL)', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: {} }));
    const { client: c } = client(url);
    await expect(c.request({ method: 'GET', path: '//evil.example/x' })).rejects.toThrow(/invalid request path/);
    await expect(c.request({ method: 'GET', path: 'http://evil.example/x' })).rejects.toThrow(/invalid request path/);
    expect(seen).toHaveLength(0);
  });

  it('sends If-Match and Idempotency-Key verbatim with a JSON content type', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: { ok: true } }));
    const { client: c } = client(url);
    await c.request({ method: 'PATCH', path: '/deliveries/v1/parcels/p1', body: { parcel_weight: null }, ifMatch: 'W/"x y"' });
    await c.request({ method: 'POST', path: '/deliveries/v1/parcels', body: { a: 'é' }, idempotencyKey: 'key-12345678' });
    expect(seen[0]?.headers['if-match']).toBe('W/"x y"');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.body.toString()).toBe('{"parcel_weight":null}');
    expect(seen[1]?.headers['idempotency-key']).toBe('key-12345678');
    expect(seen[1]?.body.toString('utf8')).toBe('{"a":"é"}');
    expect(seen[1]?.headers['content-length']).toBe('10');
  });
});

describe('retries', () => {
  it('retries 503 then succeeds, with jittered backoff delays', async () => {
    const { url, seen } = await serve((_req, res, _b, n) => (n <= 2 ? json(res, 503, { error: { code: 'unavailable' } }) : json(res, 200, { data: { n } })));
    const { client: c, sleeps, trace } = client(url);
    const response = await c.request({ method: 'GET', path: '/account/v1/overview' });
    expect(response.data).toEqual({ n: 3 });
    expect(response.attempts).toBe(3);
    expect(seen).toHaveLength(3);
    // random() = 0.5: three quarters of 200 ms, then of 400 ms (equal jitter).
    expect(sleeps).toEqual([150, 300]);
    expect(trace).toContain('retrying in 150 ms after 503 (attempt 2/4)');
    expect(trace).toContain('retrying in 300 ms after 503 (attempt 3/4)');
    expect(trace.filter((l) => l.startsWith('< 503 Service Unavailable ('))).toHaveLength(2);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped at 60 s', async () => {
    const date = new Date(Date.now() + 3_000).toUTCString();
    const { url } = await serve((_req, res, _b, n) => {
      if (n === 1) return json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '7' });
      if (n === 2) return json(res, 503, {}, { 'retry-after': date });
      if (n === 3) return json(res, 429, {}, { 'retry-after': '3600' });
      return json(res, 200, { data: 'ok' });
    });
    const { client: c, sleeps } = client(url);
    const response = await c.request({ method: 'GET', path: '/account/v1/usage' });
    expect(response.data).toBe('ok');
    expect(sleeps[0]).toBe(7000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(2000);
    expect(sleeps[1]).toBeLessThanOrEqual(4000);
    expect(sleeps[2]).toBe(60_000);
  });

  it('throws the last error with Retry-After after the retries run out', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, { error: { code: 'slow_down', message: 'too fast' } }, { 'retry-after': '2' }));
    const { client: c, sleeps } = client(url, { retries: 2 });
    const error = await c.request({ method: 'GET', path: '/account/v1/usage' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'slow_down', message: 'too fast', retryAfter: 2, attempt: 3 });
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('does not retry a POST without an Idempotency-Key', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 503, { error: { code: 'unavailable' } }));
    const { client: c, sleeps } = client(url);
    const error = await c.request({ method: 'POST', path: '/deliveries/v1/address/validate', body: { x: 1 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, attempt: 1 });
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry 4xx other than 429', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 422, { error: { code: 'validation_failed' } }));
    const { client: c } = client(url);
    await expect(c.request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ status: 422 });
    expect(seen).toHaveLength(1);
  });

  it('retries a keyed POST with the same key and the exact same body bytes', async () => {
    const { url, seen } = await serve((_req, res, _b, n) => (n === 1 ? json(res, 500, {}) : json(res, 201, { data: { entry_id: 'e1' } })));
    const { client: c } = client(url);
    const body = { courier: 'DHL', number: '1', note: 'ünïcode ✓', n: 1.5 };
    const response = await c.request({ method: 'POST', path: '/deliveries/v1/parcels', body, idempotencyKey: 'idem-key-0001' });
    expect(response.status).toBe(201);
    expect(response.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.headers['idempotency-key']).toBe('idem-key-0001');
    expect(seen[1]?.headers['idempotency-key']).toBe('idem-key-0001');
    expect(Buffer.compare(seen[0]!.body, seen[1]!.body)).toBe(0);
    expect(seen[1]?.body.toString('utf8')).toBe(JSON.stringify(body));
  });

  it('retries when the server drops the connection, then gives a NetworkError', async () => {
    const { url, seen } = await serve((req) => req.socket.destroy());
    const { client: c, sleeps } = client(url, { retries: 2 });
    const error = await c.request({ method: 'GET', path: '/account/v1/couriers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('connection_reset');
    expect((error as NetworkError).message).toMatch(/gave up after 3 attempts/);
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([150, 300]);
  });

  it('recovers from a dropped connection on retry', async () => {
    const { url } = await serve((req, res, _b, n) => (n === 1 ? req.socket.destroy() : json(res, 200, { data: 1 })));
    const { client: c } = client(url);
    expect((await c.request({ method: 'GET', path: '/x' })).attempts).toBe(2);
  });

  it('maps a refused connection to connection_refused', async () => {
    const { url } = await serve(() => undefined);
    // Closed and no longer listening (no connection was ever opened to it).
    await new Promise((closed) => servers[0]?.close(closed));
    const { client: c } = client(url, { retries: 1 });
    await expect(c.request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ name: 'NetworkError', code: 'connection_refused' });
  });

  it('times out an attempt with NetworkError("timeout")', async () => {
    const { url, seen } = await serve(() => undefined /* never answers */);
    const { client: c } = client(url, { timeoutMs: 150, retries: 1 });
    const error = await c.request({ method: 'GET', path: '/slow' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('timeout');
    expect(seen).toHaveLength(2);
  });

  it('turns a caller abort into CancelledError without retrying', async () => {
    const { url, seen } = await serve(() => undefined);
    const { client: c } = client(url);
    const controller = new AbortController();
    const pending = c.request({ method: 'GET', path: '/slow', signal: controller.signal });
    // Aborted while it waits for the answer, not before it is sent.
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(seen).toHaveLength(1);
  });
});

describe('redirects', () => {
  it('never follows a 3xx and never sends the key to the other host', async () => {
    const other = await serve((_req, res) => json(res, 200, { data: 'stolen' }));
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.url}/steal` });
      res.end();
    });
    const { client: c } = client(url);
    const error = await c.request({ method: 'GET', path: '/account/v1/overview' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 302, code: 'http_302' });
    expect((error as ApiError).message).toContain('redirects are not followed');
    expect(seen).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
  });
});

describe('error mapping (spec section 7)', () => {
  const table: [number, string, string][] = [
    [400, 'bad_request', 'Bad Request'],
    [401, 'unauthorized', 'Unauthorized'],
    [403, 'forbidden', 'Forbidden'],
    [404, 'not_found', 'Not Found'],
    [409, 'conflict', 'Conflict'],
    [412, 'precondition_failed', 'Precondition Failed'],
    [422, 'validation_failed', 'Unprocessable Entity'],
    [429, 'rate_limited', 'Too Many Requests'],
    [500, 'internal_error', 'Internal Server Error'],
    [503, 'unavailable', 'Service Unavailable'],
  ];

  it.each(table)('%i without a JSON body → code %s', async (status, code, phrase) => {
    const { url } = await serve((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    });
    const { client: c } = client(url, { retries: 0 });
    const error = (await c.request({ method: 'GET', path: '/account/v1/overview' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toBe(phrase);
    expect(error.body).toBeUndefined();
    expect(error.attempt).toBe(1);
    expect(error.request).toEqual({ method: 'GET', path: '/account/v1/overview' });
  });

  it.each(table)('%i with a JSON envelope uses its code and message', async (status) => {
    const body = { error: { code: `svc_${status}`, message: `message ${status}` } };
    const { url } = await serve((_req, res) => json(res, status, body));
    const { client: c } = client(url, { retries: 0 });
    const error = (await c.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(status);
    expect(error.code).toBe(`svc_${status}`);
    expect(error.message).toBe(`message ${status}`);
    expect(error.body).toEqual(body);
  });

  it('accepts body.code / body.message and a string body.error (a code, or else the message)', async () => {
    const { url } = await serve((_req, res, _b, n) =>
      n === 1
        ? json(res, 404, { code: 'no_such_parcel', message: 'gone' })
        : n === 2
          ? json(res, 400, { error: 'bad_thing' })
          : json(res, 400, { error: 'the thing is bad' }),
    );
    const { client: c } = client(url, { retries: 0 });
    await expect(c.request({ method: 'GET', path: '/a' })).rejects.toMatchObject({ code: 'no_such_parcel', message: 'gone' });
    await expect(c.request({ method: 'GET', path: '/b' })).rejects.toMatchObject({ code: 'bad_thing', message: 'Bad Request (bad_thing)' });
    await expect(c.request({ method: 'GET', path: '/c' })).rejects.toMatchObject({ code: 'bad_request', message: 'the thing is bad' });
  });

  it('an unknown status becomes http_<n>', async () => {
    // 499 has no phrase in node:http's STATUS_CODES.
    const { url } = await serve((_req, res) => json(res, 499, {}));
    const { client: c } = client(url, { retries: 0 });
    await expect(c.request({ method: 'GET', path: '/a' })).rejects.toMatchObject({ status: 499, code: 'http_499', message: 'HTTP 499' });
  });
});

describe('redaction: trace and describe', () => {
  it('never puts the key in trace lines', async () => {
    const { url } = await serve((req, res, _b, n) =>
      n === 1 ? json(res, 503, { echo: req.headers.authorization }) : json(res, 200, { data: 1 }, { 'x-echo': String(req.headers.authorization) }),
    );
    const { client: c, trace } = client(url);
    await c.request({ method: 'POST', path: '/deliveries/v1/parcels', body: { a: 1 }, idempotencyKey: 'k-12345678' });
    const all = trace.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(KEY.slice(4));
    expect(trace[0]).toBe(`> POST ${url}/deliveries/v1/parcels`);
    expect(trace).toContain('> Authorization: Bearer ***REDACTED***');
    expect(trace).toContain('> Idempotency-Key: k-12345678');
    expect(trace).toContain(`> POST ${url}/deliveries/v1/parcels (attempt 2/4)`);
    expect(trace.some((l) => /^< 200 OK \(\d+ ms\)$/.test(l))).toBe(true);
    expect(trace).toContain('< x-echo: Bearer ***REDACTED***');
  });

  it('describes a request with a masked key and a runnable curl command', () => {
    const { client: c } = client('http://127.0.0.1:9/base');
    const d = c.describe({ method: 'POST', path: '/deliveries/v1/parcels', body: { note: "it's" }, idempotencyKey: 'idem-1234', query: { a: 'x y' } });
    expect(d).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:9/base/deliveries/v1/parcels?a=x+y',
      headers: {
        Accept: 'application/json',
        Authorization: 'Bearer ***REDACTED***',
        'Content-Type': 'application/json',
        'Idempotency-Key': 'idem-1234',
        'User-Agent': 'parcels-test/1.0',
      },
      body: `{"note":"it's"}`,
      curl:
        `printf 'Authorization: Bearer %s\\n' "$PARCELS_API_KEY" | ` +
        `curl -sS -X POST 'http://127.0.0.1:9/base/deliveries/v1/parcels?a=x+y' -H 'Accept: application/json' ` +
        `-H @- -H 'Content-Type: application/json' -H 'Idempotency-Key: idem-1234' ` +
        `--data-binary '{"note":"it'\\''s"}'`,
    });
    expect(JSON.stringify(d)).not.toContain(KEY);
  });

  it('the mask has the same width whatever the key length', () => {
    const short = new ApiClient({ baseUrl: 'http://h', apiKey: 'ab', timeoutMs: 1000, retries: 0, userAgent: 'u' });
    const long = new ApiClient({ baseUrl: 'http://h', apiKey: 'x'.repeat(200), timeoutMs: 1000, retries: 0, userAgent: 'u' });
    const req = { method: 'GET' as const, path: '/a' };
    expect(short.describe(req).headers.Authorization).toBe(long.describe(req).headers.Authorization);
    expect(short.describe(req).curl).toBe(long.describe(req).curl);
  });

  it('dry-run writes the description and sends nothing', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: 1 }));
    const out: string[] = [];
    const { client: c } = client(url, { dryRun: dryRunRecorder((t) => out.push(t)) });
    await expect(
      c.request({ method: 'PATCH', path: '/deliveries/v1/parcels/p', body: { addition: '' }, ifMatch: '"e1"' }),
    ).rejects.toBeInstanceOf(DryRunComplete);
    expect(seen).toHaveLength(0);
    expect(out.join('')).toContain(`PATCH ${url}/deliveries/v1/parcels/p\n`);
    expect(out.join('')).toContain(`-H 'If-Match: "e1"'`);
    expect(out.join('')).not.toContain(KEY);
  });
});

describe('helpers', () => {
  it('parseRetryAfter', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:10 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('backoffDelay doubles to the cap, jittered between half its ceiling and the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, () => 0.999999))).toEqual([199, 399, 799, 1599, 3199, 4999, 4999]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, () => 0))).toEqual([100, 200, 400, 800, 1600, 2500, 2500]);
  });

  it('shellQuote', () => {
    expect(shellQuote('abc')).toBe('abc');
    expect(shellQuote("a'b c")).toBe(`'a'\\''b c'`);
    expect(shellQuote('$HOME')).toBe(`'$HOME'`);
  });
});
