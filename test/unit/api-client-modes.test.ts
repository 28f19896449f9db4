import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dryRunRecorder, formatDescription } from '../../src/api/dry-run.js';
import { ApiClient } from '../../src/api/http.js';
import type { ApiClientOptions } from '../../src/api/http.js';
import { paginate } from '../../src/api/paginate.js';
import { REDACTED, redactKey } from '../../src/api/redact.js';
import { ApiError, CancelledError, DryRunComplete, InvalidHeaderError, NetworkError, UsageError, exitCodeFor } from '../../src/errors.js';
import { waitingIndicator } from '../../src/io/spinner.js';
import { captureIO } from '../helpers/io.js';

const KEY = 'modes_test_key_8c1e4a7f2b9d';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}
type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const servers: Server[] = [];
const clients: ApiClient[] = [];

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      handler(req, res, seen.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function client(url: string, extra: Partial<ApiClientOptions> = {}): ApiClient {
  const c = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 2000, retries: 3, userAgent: 'modes/1', random: () => 0.5, ...extra });
  clients.push(c);
  return c;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe('recording mode (--dry-run)', () => {
  it('records every request, sends nothing, and prints each with the auth-token comment', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, {}));
    const printed: string[] = [];
    const recorder = dryRunRecorder((t) => printed.push(t));
    const c = client(url, { dryRun: recorder });
    expect(c.recording).toBe(true);
    await expect(c.request({ method: 'GET', path: '/deliveries/v1/parcels/p' })).rejects.toBeInstanceOf(DryRunComplete);
    c.record({ method: 'PATCH', path: '/deliveries/v1/parcels/p', body: { parcel_weight: 5 }, ifMatch: '"from-the-get"' });
    expect(seen).toHaveLength(0);
    expect(recorder.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${url}/deliveries/v1/parcels/p`, `PATCH ${url}/deliveries/v1/parcels/p`]);
    expect(recorder.requests[1]?.body).toBe('{"parcel_weight":5}');
    expect(c.recorded).toBe(recorder.requests);
    expect(printed).toEqual(recorder.requests.map((d) => formatDescription(d)));
    expect(printed[0]).toContain("# the key is read from PARCELS_API_KEY, as this command read it\nprintf ");
    expect(printed.join('')).not.toContain(KEY);
  });

  it('record() does nothing outside recording mode', () => {
    const c = client('http://127.0.0.1:9');
    expect(c.recording).toBe(false);
    expect(c.recorded).toEqual([]);
    expect(() => c.record({ method: 'GET', path: '/a' })).not.toThrow();
  });
});

describe('requests', () => {
  it('any method, with extra headers; Authorization cannot be replaced', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: null }));
    const c = client(url);
    await c.request({ method: 'DELETE', path: '/things/1', headers: { 'X-Request-Note': 'bulk 7' } });
    expect(seen[0]).toMatchObject({ method: 'DELETE', url: '/things/1' });
    expect(seen[0]?.headers['x-request-note']).toBe('bulk 7');
    await expect(c.request({ method: 'GET', path: '/a', headers: { authorization: 'Bearer other' } })).rejects.toBeInstanceOf(UsageError);
    expect(seen).toHaveLength(1);
  });

  it('a header value with CR/LF is refused before sending, naming the flag (exit 2)', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { data: null }));
    const c = client(url);
    const idem = await c.request({ method: 'POST', path: '/a', body: {}, idempotencyKey: 'a\r\nb' }).catch((e: unknown) => e);
    expect(idem).toBeInstanceOf(InvalidHeaderError);
    expect(idem).toMatchObject({ header: 'Idempotency-Key', field: '--idempotency-key' });
    expect(exitCodeFor(idem)).toBe(2);
    const ifMatch = await c.request({ method: 'PATCH', path: '/a', body: {}, ifMatch: '"x"\n' }).catch((e: unknown) => e);
    expect(ifMatch).toMatchObject({ header: 'If-Match', field: '--if-match', message: '--if-match must not contain control characters (CR, LF, tab, …)' });
    const other = await c.request({ method: 'GET', path: '/a', headers: { 'X-Note': 'a\u0007' } }).catch((e: unknown) => e);
    expect(other).toMatchObject({ field: 'X-Note', message: 'the X-Note header must not contain control characters (CR, LF, tab, …)' });
    expect(seen).toHaveLength(0);
  });

  it('paginate() walks any list route by next_cursor', async () => {
    const { url, seen } = await serve((req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      if (cursor === null) return json(res, 200, { data: { events: [1, 2], next_cursor: 'c2' } });
      if (cursor === 'c2') return json(res, 200, { data: { events: [3], next_cursor: 'c3' } });
      return json(res, 200, { data: { events: [], next_cursor: null } });
    });
    const pages: unknown[] = [];
    for await (const page of paginate(client(url), { method: 'GET', path: '/deliveries/v1/parcels/p/events', query: { limit: 2 } })) pages.push(page.data);
    expect(pages).toHaveLength(3);
    expect(seen.map((s) => s.url)).toEqual([
      '/deliveries/v1/parcels/p/events?limit=2',
      '/deliveries/v1/parcels/p/events?limit=2&cursor=c2',
      '/deliveries/v1/parcels/p/events?limit=2&cursor=c3',
    ]);
  });
});

describe('response size', () => {
  it('stops at maxResponseBytes with a clear error (exit 8), declared or streamed, without retrying', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(5000) });
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/declared') return json(res, 200, JSON.parse(big));
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.write(big.slice(0, 2000));
      res.end(big.slice(2000));
    });
    const c = client(url, { maxResponseBytes: 1000 });
    for (const path of ['/declared', '/streamed']) {
      const error = await c.request({ method: 'GET', path }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'response_too_large', message: 'the response is larger than 1000 bytes; stopped reading it' });
      expect(exitCodeFor(error)).toBe(8);
    }
    expect(seen).toHaveLength(2);
    expect((await client(url, { maxResponseBytes: 10_000 }).request({ method: 'GET', path: '/declared' })).data).toHaveLength(5000);
  });
});

describe('--verbose bodies', () => {
  it('traces request and response bodies, redacted and cut after 2048 characters', async () => {
    const { url } = await serve((_req, res) => json(res, 200, { data: `${KEY} ${'y'.repeat(3000)}` }));
    const trace: string[] = [];
    await client(url, { trace: (l) => trace.push(l) }).request({ method: 'POST', path: '/a', body: { note: 'hi' }, idempotencyKey: 'k1' });
    expect(trace).toContain('> {"note":"hi"}');
    const response = trace.find((l) => l.startsWith('< {'));
    expect(response?.startsWith(`< {"data":"${REDACTED} yyy`)).toBe(true);
    expect(response).toMatch(/… \(\d+ more characters\)$/);
    expect(trace.join('\n')).not.toContain(KEY);
  });
});

describe('clock skew', () => {
  it("exposes the latest difference between the service's Date header and our clock", async () => {
    const ours = Date.UTC(2026, 10, 23, 12, 0, 0);
    const { url } = await serve((_req, res) => json(res, 200, { data: 1 }, { date: new Date(ours + 90_000).toUTCString() }));
    const c = client(url, { now: () => ours });
    expect(c.lastSkewSeconds).toBeUndefined();
    await c.request({ method: 'GET', path: '/a' });
    expect(c.lastSkewSeconds).toBe(90);
  });
});

describe('Retry-After gate', () => {
  it('a 429 pauses every request of the client, not only the one that got it; the wait is announced', async () => {
    const { url, seen } = await serve((_req, res, n) => (n === 1 ? json(res, 429, {}, { 'retry-after': '55' }) : json(res, 200, { data: n })));
    let clock = Date.UTC(2026, 0, 1);
    const pending: { ms: number; resolve: () => void }[] = [];
    const notices: string[] = [];
    const c = client(url, {
      now: () => clock,
      sleep: (ms) => new Promise<void>((resolve) => pending.push({ ms, resolve })),
      waiting: { start: async () => undefined, stop: async () => undefined, notice: (l) => notices.push(l) },
    });
    const first = c.request({ method: 'GET', path: '/first' });
    await expect.poll(() => pending.length).toBe(1);
    const second = c.request({ method: 'GET', path: '/second' });
    await expect.poll(() => pending.length).toBe(2);
    expect(seen.map((s) => s.url)).toEqual(['/first']);
    expect(pending.map((p) => p.ms)).toEqual([55_000, 55_000]);
    expect(notices).toEqual(['rate limited; retrying in 55 s (1/3)']);
    clock += 55_000;
    for (const p of pending.splice(0)) p.resolve();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(seen).toHaveLength(3);
  });
});

describe('cancellation', () => {
  it('an aborted client signal ends a waiting request as CancelledError with the signal (SIGTERM → 143)', async () => {
    const { url, seen } = await serve(() => undefined); // never answers
    const controller = new AbortController();
    const c = client(url, { signal: controller.signal });
    const pending = c.request({ method: 'GET', path: '/slow' }).catch((e: unknown) => e);
    // Aborted while the request waits for its answer, not before it is sent.
    await expect.poll(() => seen.length).toBe(1);
    controller.abort(new CancelledError('terminated', 'SIGTERM'));
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ signal: 'SIGTERM' });
    expect(exitCodeFor(error)).toBe(143);
    expect(exitCodeFor(new CancelledError('interrupted', 'SIGINT'))).toBe(130);
  });

  it('a per-request signal also cuts a retry wait short', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const controller = new AbortController();
    const notices: string[] = [];
    const waiting = { start: async () => undefined, stop: async () => undefined, notice: (l: string) => notices.push(l) };
    const pending = client(url, { waiting }).request({ method: 'GET', path: '/a', signal: controller.signal }).catch((e: unknown) => e);
    // Aborted once the client waits to retry (its notice says so), not while the 503 is on its way.
    await expect.poll(() => notices.length).toBe(1);
    controller.abort(new CancelledError('interrupted', 'SIGINT'));
    const error = await pending;
    expect(error).toMatchObject({ name: 'CancelledError', signal: 'SIGINT' });
    expect(seen).toHaveLength(1);
    expect(notices).toEqual(['503 Service Unavailable from the service; retrying in 30 s (1/3)']);
  });
});

describe('waitingIndicator', () => {
  it('off a terminal: no spinner, but notices are written to stderr', async () => {
    const c = captureIO({ tty: false });
    const w = waitingIndicator(c.io, { spin: true });
    await w.start('GET /a');
    w.notice('rate limited; retrying in 55 s (1/3)');
    await w.stop();
    expect(c.stderr()).toBe('rate limited; retrying in 55 s (1/3)\n');
    expect(c.stdout()).toBe('');
  });

  it('on a terminal: one spinner shared by concurrent requests, cleared by the last to stop', async () => {
    vi.useFakeTimers();
    const c = captureIO({ tty: true, columns: 80 });
    const w = waitingIndicator(c.io, { spin: true });
    await Promise.all([w.start('GET /a'), w.start('GET /b')]);
    await w.stop();
    const afterFirstStop = c.stderr().length;
    vi.advanceTimersByTime(1000);
    expect(c.stderr().length).toBeGreaterThan(afterFirstStop);
    w.notice('retrying');
    expect(c.stderr()).toContain('retrying\n');
    await w.stop();
    const afterLastStop = c.stderr().length;
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(c.stderr().length).toBe(afterLastStop);
    expect(c.stderr().match(/GET \/b/g) ?? []).toEqual([]);
  });
});

describe('redactKey', () => {
  it('masks the key and every run of 8 or more of its characters; shorter runs stay', () => {
    const key = 'abcdefghijklmnop';
    expect(redactKey(`x ${key} y`, key)).toBe(`x ${REDACTED} y`);
    expect(redactKey('id=cdefghijkl;', key)).toBe(`id=${REDACTED};`);
    expect(redactKey('id=cdefghi;', key)).toBe('id=cdefghi;');
    expect(redactKey('abcdefghXXijklmnop', key)).toBe(`${REDACTED}XX${REDACTED}`);
    expect(redactKey('short', 'sho')).toBe(`${REDACTED}rt`);
    // A run wholly inside the key's public prefix (up to its last "_") is not a secret.
    const prefixed = 'sk_live_account_9f2c4e7a1b3d5f60';
    expect(redactKey('code live_account, key 9f2c4e7a1b', prefixed)).toBe(`code live_account, key ${REDACTED}`);
    expect(redactKey('x account_9f2c4e y', prefixed)).toBe(`x ${REDACTED} y`);
    expect(redactKey('text', undefined)).toBe('text');
  });

  it('an ApiError message from the service is redacted before anyone sees it', async () => {
    const { url } = await serve((_req, res) => json(res, 400, { error: { message: `key ${KEY.slice(8, 20)} rejected` } }));
    const error = await client(url, { retries: 0 }).request({ method: 'GET', path: '/a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`key ${REDACTED} rejected`);
    expect(JSON.stringify((error as ApiError).body)).not.toContain(KEY.slice(8, 20));
  });
});
