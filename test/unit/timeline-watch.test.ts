/** The watch loop alone: reads, output and sleep are fakes, so every poll is driven without waiting. */
import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/api/core/sleep.js';
import { ApiError, CancelledError, NetworkError } from '../../src/errors.js';
import type { TimelineEntry } from '../../src/schemas/timeline.js';
import { buildTimeline } from '../../src/schemas/timeline.js';
import type { Snapshot, WatchOptions } from '../../src/track/watch.js';
import { MAX_PAUSE_MS, isPassing, pauseAfter, watch } from '../../src/track/watch.js';

const T = 1_700_000_000;
const ev = (status: number, at: number) => ({ status, occurred_at: at });
const att = (outcome: number, at: number) => ({ outcome, time_attempt: at });
type History = { events: unknown[]; attempts: unknown[] };
type Step = Record<string, History> | Error;

/** A watch over scripted reads: each poll takes the next step (a history per parcel, or an error). */
function scripted(steps: Step[], extra: Partial<WatchOptions> = {}) {
  const log: string[] = [];
  const sleeps: number[] = [];
  let poll = 0;
  const options: WatchOptions = {
    ids: ['a'],
    intervalMs: 30_000,
    failOnAttempt: false,
    async read(ids) {
      const step = steps[Math.min(poll++, steps.length - 1)] as Step;
      log.push(`read ${ids.join(',')}`);
      if (step instanceof Error) throw step;
      return ids.map((id): Snapshot => ({ parcel: { entry_id: id }, timeline: buildTimeline(step[id]?.events ?? [], step[id]?.attempts ?? []) }));
    },
    async first(snapshots) {
      log.push(`first ${[...snapshots].map(([id, s]) => `${id}:${s.timeline.length}`).join(' ')}`);
    },
    async fresh(batch) {
      log.push(`fresh ${batch.map((b) => `${b.id}:${b.entries.map(short).join('+')}`).join(' ')}`);
    },
    async pausing(error, delayMs) {
      log.push(`pause ${error.message} ${delayMs}`);
    },
    async sleep(ms) {
      sleeps.push(ms);
    },
    signal: new AbortController().signal,
    ...extra,
  };
  return { options, log, sleeps };
}

function short(entry: TimelineEntry): string {
  const record = entry.record as { status?: number; outcome?: number };
  return entry.kind === 'event' ? `e${record.status}` : `a${record.outcome}`;
}

describe('watch', () => {
  it('prints the first read, then only new entries, and ends when an attempt delivers', async () => {
    const h1: History = { events: [ev(1, T)], attempts: [] };
    const h2: History = { events: [ev(1, T), ev(2, T + 10)], attempts: [] };
    const h3: History = { events: [ev(1, T), ev(2, T + 10)], attempts: [att(1, T + 20), att(0, T + 30)] };
    const { options, log, sleeps } = scripted([{ a: h1 }, { a: h1 }, { a: h2 }, { a: h3 }]);
    expect(await watch(options)).toEqual({ delivered: true });
    expect(log).toEqual(['read a', 'first a:1', 'read a', 'read a', 'fresh a:e2', 'read a', 'fresh a:a1+a0']);
    expect(sleeps).toEqual([30_000, 30_000, 30_000]);
  });

  it('a parcel delivered before the watch began ends it at once', async () => {
    const { options, log, sleeps } = scripted([{ a: { events: [], attempts: [att(2, T)] } }]);
    expect(await watch(options)).toEqual({ delivered: true });
    expect(log).toEqual(['read a', 'first a:1']);
    expect(sleeps).toEqual([]);
  });

  it('--fail-on-attempt ends at a new attempt that did not deliver; earlier failed attempts do not count', async () => {
    const before: History = { events: [], attempts: [att(1, T)] };
    const after: History = { events: [ev(2, T + 5)], attempts: [att(1, T), att(3, T + 10)] };
    const { options, log } = scripted([{ a: before }, { a: after }], { failOnAttempt: true });
    const end = await watch(options);
    expect(end).toEqual({ delivered: false, id: 'a', attempt: { kind: 'attempt', at: T + 10, record: att(3, T + 10) } });
    expect(log).toEqual(['read a', 'first a:1', 'read a', 'fresh a:e2+a3']);
  });

  it('without --fail-on-attempt a failed attempt is one more entry', async () => {
    const { options, log } = scripted([{ a: { events: [], attempts: [] } }, { a: { events: [], attempts: [att(1, T)] } }, { a: { events: [], attempts: [att(1, T), att(0, T + 1)] } }]);
    expect(await watch(options)).toEqual({ delivered: true });
    expect(log.filter((l) => l.startsWith('fresh'))).toEqual(['fresh a:a1', 'fresh a:a0']);
  });

  it('a delivery read in the same poll as a failed attempt wins', async () => {
    const { options } = scripted([{ a: { events: [], attempts: [] } }, { a: { events: [], attempts: [att(4, T), att(0, T + 1)] } }], { failOnAttempt: true });
    expect(await watch(options)).toEqual({ delivered: true });
  });

  it('several parcels: delivered ones stop being read; it ends when all are delivered', async () => {
    const none: History = { events: [], attempts: [] };
    const done: History = { events: [], attempts: [att(0, T)] };
    const { options, log } = scripted([{ a: none, b: done, c: none }, { a: done, c: none }, { c: done }], { ids: ['a', 'b', 'c'] });
    expect(await watch(options)).toEqual({ delivered: true });
    expect(log).toEqual(['read a,b,c', 'first a:0 b:1 c:0', 'read a,c', 'fresh a:a0', 'read c', 'fresh c:a0']);
  });

  it('several parcels with --fail-on-attempt: ends at the first failed one', async () => {
    const none: History = { events: [], attempts: [] };
    const { options } = scripted([{ a: none, b: none }, { a: none, b: { events: [], attempts: [att(1, T)] } }], { ids: ['a', 'b'], failOnAttempt: true });
    expect(await watch(options)).toMatchObject({ delivered: false, id: 'b' });
  });

  it('429, 5xx and network failures pause with growing waits (never under Retry-After, bounded to a minute) and polling goes on', async () => {
    const none: History = { events: [], attempts: [] };
    const limited = new ApiError(429, 'rate_limited', 'slow down', undefined, 120);
    const down = new ApiError(503, 'unavailable', 'down', undefined);
    const cut = new NetworkError('connection refused', 'connection_refused');
    const { options, log, sleeps } = scripted([cut, { a: none }, limited, down, { a: { events: [], attempts: [att(0, T)] } }], { intervalMs: 10_000, random: () => 0.5 });
    expect(await watch(options)).toEqual({ delivered: true });
    expect(log).toEqual([
      'read a',
      'pause connection refused 15000',
      'read a',
      'first a:0',
      'read a',
      'pause slow down 60000',
      'read a',
      'pause down 30000',
      'read a',
      'fresh a:a0',
    ]);
    expect(sleeps).toEqual([15_000, 10_000, 60_000, 30_000]);
  });

  it('any other error ends the watch', async () => {
    const missing = new ApiError(404, 'not_found', 'parcel not found', undefined);
    const { options } = scripted([{ a: { events: [], attempts: [] } }, missing]);
    await expect(watch(options)).rejects.toBe(missing);
  });

  it('a cancelled sleep ends the watch with CancelledError', async () => {
    const controller = new AbortController();
    const { options } = scripted([{ a: { events: [], attempts: [] } }], { signal: controller.signal, sleep });
    const watching = watch(options);
    setImmediate(() => controller.abort('SIGINT'));
    await expect(watching).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('pauses', () => {
  it('double from twice the interval, capped at five minutes (or the interval when longer), with the core backoff jitter', () => {
    const cut = new NetworkError('x', 'timeout');
    const most = (): number => 1 - 1e-9;
    const least = (): number => 0;
    expect([1, 2, 3, 4, 5, 6].map((n) => pauseAfter(n, 30_000, cut, most))).toEqual([59_999, 119_999, 239_999, 299_999, 299_999, 299_999]);
    expect([1, 2, 3, 4, 5, 6].map((n) => pauseAfter(n, 30_000, cut, least))).toEqual([30_000, 60_000, 120_000, 150_000, 150_000, 150_000]);
    expect(pauseAfter(3, 600_000, cut, least)).toBe(300_000);
    expect(pauseAfter(3, 600_000, cut, most)).toBe(599_999);
    expect(MAX_PAUSE_MS).toBe(300_000);
  });

  it('never under Retry-After, which is bounded: a hostile one polls once a minute, never in a hot loop', () => {
    const least = (): number => 0;
    expect(pauseAfter(1, 1_000, new ApiError(503, 'unavailable', 'x', undefined, 20), least)).toBe(20_000);
    expect(pauseAfter(1, 1_000, new ApiError(503, 'unavailable', 'x', undefined, 1_000_000_000), least)).toBe(60_000);
    expect(pauseAfter(1, 1_000, new ApiError(429, 'rate_limited', 'x', undefined, Number.MAX_SAFE_INTEGER), least)).toBe(60_000);
  });

  it('a watch read answered 500 with Retry-After: 30 sleeps its backoff (virtual time), then goes on', async () => {
    const h: History = { events: [ev(1, T), ev(3, T + 10)], attempts: [att(0, T + 20)] };
    const { options, sleeps } = scripted([new ApiError(500, 'internal_error', 'boom', undefined, 30), { a: h }], { intervalMs: 1_000, random: () => 0 });
    expect(await watch(options)).toEqual({ delivered: true });
    expect(sleeps).toEqual([1_000]);
  });

  it("honours Retry-After only where the core's policy does (429, 503): a 500 with Retry-After: 30 waits its backoff", () => {
    const least = (): number => 0;
    expect(pauseAfter(1, 1_000, new ApiError(500, 'internal_error', 'x', undefined, 30), least)).toBe(1_000);
    expect(pauseAfter(1, 1_000, new ApiError(502, 'bad_gateway', 'x', undefined, 30), least)).toBe(1_000);
    expect(pauseAfter(1, 1_000, new ApiError(503, 'unavailable', 'x', undefined, 30), least)).toBe(30_000);
    expect(pauseAfter(1, 1_000, new ApiError(429, 'rate_limited', 'x', undefined, 30), least)).toBe(30_000);
  });

  it('only 429, 5xx and network failures are passing', () => {
    expect([new ApiError(429, 'x', 'x', undefined), new ApiError(500, 'x', 'x', undefined), new NetworkError('x', 'x')].map(isPassing)).toEqual([true, true, true]);
    expect([new ApiError(404, 'x', 'x', undefined), new ApiError(401, 'x', 'x', undefined), new Error('x'), new CancelledError()].map(isPassing)).toEqual([false, false, false, false]);
  });

  it("the core's sleep resolves after its time, and rejects at once on an aborted signal", async () => {
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(CancelledError);
  });
});
