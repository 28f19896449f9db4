/**
 * A hostile loopback server against every sender of the request core: the API client, a bulk run,
 * `track --watch` and pagination. Every wait it asks for (Retry-After, a rate-limit reset) is
 * bounded by the core's one cap, and no loop it can start runs forever. Requests are counted; the
 * clock is scripted (no wall-clock bound, no real minute-long wait).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PoolGate } from '../../src/api/core/gate.js';
import { MAX_WAIT_MS } from '../../src/api/core/policy.js';
import { ApiClient } from '../../src/api/http.js';
import { MAX_EMPTY_PAGES, MAX_PAGES, paginate } from '../../src/api/paginate.js';
import { runBulk } from '../../src/bulk/runner.js';
import type { WorkItem } from '../../src/bulk/types.js';
import { readSnapshots } from '../../src/track/read.js';
import { CancelledError, NetworkError, exitCodeFor } from '../../src/errors.js';
import { watch } from '../../src/track/watch.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { virtualTiming } from '../helpers/timing.js';

const KEY = 'attack_test_key_0123456789abcdef';
const servers: Server[] = [];

/** A server answering every request with `answer`; counts what it gets. */
async function hostile(answer: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<{ url: string; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res, ++n));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => n };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const unavailable = (retryAfter: string) => (_req: IncomingMessage, res: ServerResponse) =>
  json(res, 503, { error: { code: 'unavailable', message: 'come back later' } }, { 'retry-after': retryAfter });

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('a long Retry-After is one bounded wait, in every sender', () => {
  it('API client: Retry-After 1000000000 waits the cap before each retry, never a hot loop', async () => {
    const { url, count } = await hostile(unavailable('1000000000'));
    const stop = new AbortController();
    const timing = virtualTiming({ after: 100, controller: stop });
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 3, userAgent: 't', sleep: timing.sleep, now: timing.now });
    const error = await client.request({ method: 'GET', path: '/account/v1/overview' }).catch((e: unknown) => e);
    await client.close();
    expect(exitCodeFor(error)).toBe(8);
    expect(count()).toBe(4);
    expect(timing.sleeps).toEqual([MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS]);
    expect(MAX_WAIT_MS).toBe(60_000);
  });

  it('API client: an HTTP-date Retry-After years ahead is the same cap', async () => {
    const { url, count } = await hostile(unavailable('Fri, 01 Jan 2100 00:00:00 GMT'));
    const timing = virtualTiming();
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 1, userAgent: 't', sleep: timing.sleep, now: timing.now });
    await client.request({ method: 'GET', path: '/account/v1/overview' }).catch(() => undefined);
    await client.close();
    expect(count()).toBe(2);
    expect(timing.sleeps).toEqual([MAX_WAIT_MS]);
  });

  it('bulk run: a 503 with Retry-After 3000000 pauses the pool for the cap, one request per pause', async () => {
    const { url, count } = await hostile(unavailable('3000000'));
    const stop = new AbortController();
    const timing = virtualTiming({ after: 5, controller: stop });
    const gate = new PoolGate(timing);
    const sender = new ApiClient({ baseUrl: url, apiKey: KEY, userAgent: 't', timeoutMs: 5_000, retries: 0, connections: 1, gate });
    const item: WorkItem = { kind: 'send', line: 1, request: { method: 'POST', path: '/deliveries/v1/parcels', body: new TextEncoder().encode('{}'), idempotencyKey: 'attack-key-0001' }, parcel: undefined, ignored: 0, journaled: false };
    const summary = await runBulk({ items: (async function* () {
        yield item;
      })(), send: sender.send, emit: () => undefined, concurrency: 1, gate, signal: stop.signal });
    await sender.close();
    expect(timing.sleeps).toEqual([MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS]);
    expect(count()).toBe(5);
    expect(summary).toMatchObject({ cancelled: true, created: 0 });
  });

  it('track --watch: a 503 with Retry-After 1000000000 makes it poll once per cap, one pause line per failed poll', async () => {
    const { url, count } = await hostile(unavailable('1000000000'));
    const stop = new AbortController();
    const timing = virtualTiming({ after: 3, controller: stop });
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 3, userAgent: 't', sleep: timing.sleep, now: timing.now });
    const lines: string[] = [];
    const id = '3f0c6d2e-8a4b-4c1d-9e7f-0a1b2c3d4e5f';
    const watching = watch({
      ids: [id],
      intervalMs: 1_000,
      failOnAttempt: false,
      read: (ids) => readSnapshots(client, ids, { signal: stop.signal, retries: 0 }, false),
      first: async () => undefined,
      fresh: async () => undefined,
      pausing: async (error, ms) => void lines.push(`${error.message}; polling again in ${ms / 1000} s`),
      sleep: timing.sleep,
      signal: stop.signal,
      random: () => 0.5,
    });
    await expect(watching).rejects.toBeInstanceOf(CancelledError);
    await client.close();
    expect(timing.sleeps).toEqual([MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS]);
    expect(lines).toEqual(Array.from({ length: 3 }, () => 'come back later; polling again in 60 s'));
    // Three polls of three reads each (parcel, events, attempts), none retried by the client.
    expect(count()).toBeLessThanOrEqual(9);
    expect(count()).toBeGreaterThanOrEqual(3);
  });
});

describe('a long Retry-After is one bounded wait while paginating', () => {
  it('pagination: a 503 with Retry-After 1000000000 between pages waits the cap once, then the walk goes on', async () => {
    const { url, count } = await hostile((req, res, n) => {
      if (n === 2) return unavailable('1000000000')(req, res);
      json(res, 200, { data: { items: [{ entry_id: `p${n}` }], ...(n < 3 ? { next_cursor: `c${n}` } : {}) } });
    });
    const timing = virtualTiming();
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 3, userAgent: 't', sleep: timing.sleep, now: timing.now });
    const items: unknown[] = [];
    for await (const page of paginate(client, { method: 'GET', path: '/deliveries/v1/parcels' })) items.push(...(page.data as { items: unknown[] }).items);
    await client.close();
    expect(items).toEqual([{ entry_id: 'p1' }, { entry_id: 'p3' }]);
    expect(count()).toBe(3);
    expect(timing.sleeps).toEqual([MAX_WAIT_MS]);
  });
});

describe('a hostile rate-limit reset is bounded like Retry-After', () => {
  it('RateLimit-Remaining 0 with RateLimit-Reset 1000000000: each next request waits the cap, not forever, not in a spin', async () => {
    const { url, count } = await hostile((_req, res) => json(res, 200, { data: {} }, { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '1000000000' }));
    const timing = virtualTiming();
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 0, userAgent: 't', sleep: timing.sleep, now: timing.now });
    for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: '/account/v1/overview' });
    await client.close();
    expect(count()).toBe(3);
    expect(timing.sleeps).toEqual([MAX_WAIT_MS, MAX_WAIT_MS]);
  });
});

describe('pagination cannot be kept going by the server', () => {
  const pages = async (url: string, maxPages = MAX_PAGES): Promise<{ pages: number; error: unknown }> => {
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, retries: 0, userAgent: 't' });
    let n = 0;
    try {
      for await (const page of paginate(client, { method: 'GET', path: '/deliveries/v1/parcels' }, maxPages)) if (page) n++;
      return { pages: n, error: undefined };
    } catch (error) {
      return { pages: n, error };
    } finally {
      await client.close();
    }
  };

  it(`empty pages that each carry a fresh cursor: stops after ${MAX_EMPTY_PAGES}, the service's fault (exit 8)`, async () => {
    const { url, count } = await hostile((_req, res, n) => json(res, 200, { data: { items: [], next_cursor: `c${n}` } }));
    const { pages: seen, error } = await pages(url);
    expect(count()).toBe(MAX_EMPTY_PAGES);
    expect(seen).toBe(MAX_EMPTY_PAGES);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('pagination_loop');
    expect(exitCodeFor(error)).toBe(8);
  });

  it('a cursor handed back twice: stops at once, exit 8 (not an unexpected failure)', async () => {
    const { url, count } = await hostile((_req, res) => json(res, 200, { data: { items: [{ entry_id: 'x' }], next_cursor: 'again' } }));
    const { error } = await pages(url);
    expect(count()).toBe(2);
    expect((error as Error).message).toBe('the service returned the cursor "again" twice; stopped following its pages (a pagination loop is the service\'s fault)');
    expect(exitCodeFor(error)).toBe(8);
  });

  it(`full pages with fresh cursors forever: stops at the page cap (${MAX_PAGES}; 40 here)`, async () => {
    const { url, count } = await hostile((_req, res, n) => json(res, 200, { data: { items: [{ entry_id: `p${n}` }], next_cursor: `c${n}` } }));
    const { pages: seen, error } = await pages(url, 40);
    expect(seen).toBe(40);
    expect(count()).toBe(40);
    expect((error as Error).message).toBe("the service had more than 40 pages; stopped following its pages (a pagination loop is the service's fault)");
    expect(exitCodeFor(error)).toBe(8);
  });

  for (const argv of [['list', '--all', '--json'], ['api', 'GET', '/deliveries/v1/parcels', '--paginate']]) {
    it(`\`parcels ${argv.join(' ')}\` against empty pages with fresh cursors: exit 8 with a clear message`, async () => {
      const { url, count } = await hostile((_req, res, n) => json(res, 200, { data: { items: [], next_cursor: `c${n}` } }));
      const result = await runCli(argv, { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY } });
      expect(count()).toBe(MAX_EMPTY_PAGES);
      expect(result.code).toBe(8);
      expect(result.stderr).toContain(`the service sent ${MAX_EMPTY_PAGES} empty pages in a row, each with a next cursor; stopped following its pages (a pagination loop is the service's fault)`);
    });
  }
});

describe('api --header refuses what the transport owns', () => {
  for (const header of ['Expect: 100-continue', 'Upgrade: websocket', 'Keep-Alive: timeout=5']) {
    it(`--header '${header}': exit 2 before anything is sent`, async () => {
      const { url, count } = await hostile((_req, res) => json(res, 200, { data: {} }));
      const result = await runCli(['api', 'GET', '/account/v1/overview', '--header', header], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY } });
      const name = header.slice(0, header.indexOf(':'));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--header cannot set ${name}: the HTTP client sets it`);
      expect(count()).toBe(0);
    });
  }
});
