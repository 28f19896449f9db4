/**
 * The pool gate keeps the service's pace from its rate-limit fields: read in every form a server
 * may send them, spent without drawing a 429, with no request but the run's own.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http.js';
import { PoolGate } from '../../src/api/core/gate.js';
import { readPace } from '../../src/api/core/pacing.js';
import { MAX_WAIT_MS } from '../../src/api/core/policy.js';
import { realTiming } from '../../src/api/core/sleep.js';
import type { Timing } from '../../src/api/core/sleep.js';
import { runBulk } from '../../src/bulk/runner.js';
import type { Send, SendResponse, WorkItem } from '../../src/bulk/types.js';
import { ApiError } from '../../src/errors.js';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { retried } from '../helpers/bulk-fixtures.js';
import { virtualTiming } from '../helpers/timing.js';

describe('readPace', () => {
  it('reads RateLimit-Limit / -Remaining / -Reset (delta seconds), as the sandbox sends them', () => {
    expect(readPace({ 'ratelimit-limit': '300', 'ratelimit-remaining': '12', 'ratelimit-reset': '4' })).toEqual({ limit: 300, remaining: 12, resetMs: 4000 });
    expect(readPace({ 'ratelimit-remaining': '0', 'ratelimit-reset': '1000000000' })).toEqual({ limit: undefined, remaining: 0, resetMs: 1_000_000_000_000 });
  });

  it('reads the structured RateLimit / RateLimit-Policy fields (draft -07 and -08 on); the policy with the fewest left decides', () => {
    expect(readPace({ ratelimit: 'limit=100, remaining=50, reset=7' })).toEqual({ limit: 100, remaining: 50, resetMs: 7000 });
    expect(readPace({ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"default";q=100;w=60' })).toEqual({ limit: 100, remaining: 50, resetMs: 30_000 });
    expect(readPace({ ratelimit: '"burst";r=5;t=1, "day";r=900;t=3600' })).toEqual({ limit: undefined, remaining: 5, resetMs: 1000 });
  });

  it('states nothing without the fields, or with values that are not whole numbers', () => {
    expect(readPace({})).toBeUndefined();
    expect(readPace({ 'ratelimit-remaining': '-1', 'ratelimit-reset': '5' })).toBeUndefined();
    expect(readPace({ 'ratelimit-remaining': '5', 'ratelimit-reset': 'soon' })).toBeUndefined();
    expect(readPace({ ratelimit: 'garbage' })).toBeUndefined();
  });
});

async function* lines(count: number): AsyncGenerator<WorkItem> {
  for (let line = 1; line <= count; line++) {
    yield { kind: 'send', line, request: { method: 'POST', path: '/p', body: new Uint8Array(), idempotencyKey: `pace-key-${line}` }, parcel: undefined, ignored: 0, journaled: false };
  }
}

/** The order in which the requests that arrived together are answered. */
type AnswerOrder = 'as counted' | 'newest first';

/**
 * The sandbox's fixed-window limiter on the virtual clock: the requests that arrive in one turn of
 * the event loop are counted in the next, in order, and answered at once with its fields (with
 * 'newest first', the last counted first: every older count reaches the client after a fresher
 * one, as answers to requests in flight together may); a request over the limit is a 429 with
 * Retry-After. Counts what is sent and what is refused.
 */
function fixedWindow(timing: Timing, gate: PoolGate, limit: number, windowMs: number, order: AnswerOrder = 'as counted'): { send: Send; sent(): number; limited(): number } {
  let windowStart = 0;
  let used = 0;
  let sent = 0;
  let limited = 0;
  let arrived: Array<{ sentAt: number; answer(response: SendResponse): void; refuse(error: ApiError): void }> = [];
  const serve = (): void => {
    const now = timing.now();
    if (now >= windowStart + windowMs) {
      windowStart = Math.floor(now / windowMs) * windowMs;
      used = 0;
    }
    const resetS = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const answers = arrived.map((request) => {
      if (used >= limit) {
        limited++;
        return () => request.refuse(new ApiError(429, 'rate_limited', 'slow down', undefined, resetS));
      }
      const remaining = limit - ++used;
      return () => {
        gate.observe({ 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(resetS) }, request.sentAt);
        request.answer({ status: 201, entryId: undefined, replayed: false });
      };
    });
    arrived = [];
    for (const give of order === 'newest first' ? answers.reverse() : answers) give();
  };
  const send = retried(
    () =>
      new Promise<SendResponse>((answer, refuse) => {
        sent++;
        if (arrived.length === 0) setImmediate(serve);
        arrived.push({ sentAt: timing.now(), answer, refuse });
      }),
  );
  return { send, sent: () => sent, limited: () => limited };
}

describe('pacing in the pool gate', () => {
  it('900 lines against a fixed window of 300 per 5 s: no 429, only the lines, done when the third window opens', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    const service = fixedWindow(timing, gate, 300, 5000);
    const summary = await runBulk({ items: lines(900), send: service.send, emit: () => undefined, concurrency: 32, gate, random: () => 0.5 });
    expect(summary).toMatchObject({ created: 900, failed: 0 });
    expect(service.limited()).toBe(0);
    expect(service.sent()).toBe(900);
    expect(timing.now()).toBe(10_000);
  });

  it('answers overtaking each other (an older, higher count after a fresher one) spend the whole window: done when the third window opens', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    const service = fixedWindow(timing, gate, 300, 5000, 'newest first');
    const summary = await runBulk({ items: lines(900), send: service.send, emit: () => undefined, concurrency: 32, gate, random: () => 0.5 });
    expect(summary).toMatchObject({ created: 900, failed: 0 });
    expect(service.limited()).toBe(0);
    expect(service.sent()).toBe(900);
    expect(timing.now()).toBe(10_000);
  });

  it('a window as long as the wait cap (300 per 60 s): no 429, each window spent at once', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    const service = fixedWindow(timing, gate, 300, 60_000);
    const summary = await runBulk({ items: lines(900), send: service.send, emit: () => undefined, concurrency: 32, gate, random: () => 0.5 });
    expect(summary).toMatchObject({ created: 900, failed: 0 });
    expect(service.limited()).toBe(0);
    expect(service.sent()).toBe(900);
    expect(timing.now()).toBe(120_000);
    expect(Math.max(...timing.sleeps)).toBeLessThanOrEqual(MAX_WAIT_MS);
  });

  it('windows longer than the wait cap (300 per 90 s, per 150 s): no 429, each spent window waited out to its end in sleeps no longer than the cap', async () => {
    for (const windowMs of [90_000, 150_000]) {
      const timing = virtualTiming();
      const gate = new PoolGate(timing);
      const service = fixedWindow(timing, gate, 300, windowMs);
      const summary = await runBulk({ items: lines(900), send: service.send, emit: () => undefined, concurrency: 32, gate, random: () => 0.5 });
      expect(summary).toMatchObject({ created: 900, failed: 0 });
      expect(service.limited()).toBe(0);
      expect(service.sent()).toBe(900);
      expect(Math.max(...timing.sleeps)).toBeLessThanOrEqual(MAX_WAIT_MS);
      expect(timing.now()).toBe(2 * windowMs);
    }
  });

  it('a hostile reset (RateLimit-Reset 1000000000) is believed a minute per request the window answered: no longer stall', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    for (let i = 0; i < 12; i++) {
      await gate.admit();
      gate.observe({ 'ratelimit-limit': '10', 'ratelimit-remaining': String(Math.max(0, 9 - i)), 'ratelimit-reset': '1000000000' }, timing.now());
      gate.settle();
    }
    expect(timing.sleeps).toEqual(Array.from({ length: 11 }, () => MAX_WAIT_MS));
  });

  it('without the fields nothing is paced', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    const summary = await runBulk({ items: lines(500), send: retried(async () => ({ status: 201, entryId: undefined, replayed: false })), emit: () => undefined, concurrency: 32, gate });
    expect(summary.created).toBe(500);
    expect(timing.sleeps).toEqual([]);
  });

  it('a real run against the sandbox limited to 40 requests a second draws no 429 and sends only its lines', async () => {
    const sandbox = await startSandbox({ db: ':memory:', port: 0, rateLimit: { requests: 40, window_s: 1 } });
    const gate = new PoolGate(realTiming);
    // Every attempt and every 429, read from the client's trace.
    let sent = 0;
    let limited = 0;
    const trace = (line: string): void => {
      if (line.startsWith('> POST ')) sent++;
      if (line.startsWith('< 429 ')) limited++;
    };
    const sender = new ApiClient({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY, userAgent: 't', timeoutMs: 10_000, retries: 0, connections: 16, gate, trace });
    async function* parcels(): AsyncGenerator<WorkItem> {
      for (let line = 1; line <= 100; line++) {
        const body = new TextEncoder().encode(JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `pace-${line}` }));
        yield { kind: 'send', line, request: { method: 'POST', path: '/deliveries/v1/parcels', body, idempotencyKey: `pace-real-${line}` }, parcel: undefined, ignored: 0, journaled: false };
      }
    }
    try {
      const summary = await runBulk({ items: parcels(), send: sender.send, emit: () => undefined, concurrency: 16, gate });
      expect(summary).toMatchObject({ created: 100, failed: 0 });
      expect(limited).toBe(0);
      expect(sent).toBe(100);
    } finally {
      await sender.close();
      await sandbox.close();
    }
  });
});
