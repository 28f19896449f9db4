import { describe, expect, it } from 'vitest';
import { PoolGate } from '../../src/api/core/gate.js';
import type { RunOptions } from '../../src/bulk/runner.js';
import { runBulk } from '../../src/bulk/runner.js';
import type { ResultLine, SendRequest, SendResponse, WorkItem } from '../../src/bulk/types.js';
import { ApiError, CancelledError, NetworkError } from '../../src/errors.js';
import type { Timing } from '../../src/api/core/sleep.js';
import { virtualTiming } from '../helpers/timing.js';
import type { Attempt } from '../helpers/bulk-fixtures.js';
import { created, itemsOf, lineOf, sendItem, retried } from '../helpers/bulk-fixtures.js';

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A run whose sender is a fake service's `send` attempt under the one retry piece. */
async function run(opts: Omit<RunOptions, 'emit' | 'send'> & { send: Attempt }): Promise<{ results: ResultLine[]; summary: Awaited<ReturnType<typeof runBulk>> }> {
  const results: ResultLine[] = [];
  const summary = await runBulk({ timing: virtualTiming(), random: () => 0.5, ...opts, send: retried(opts.send), emit: (r) => void results.push(r) });
  return { results, summary };
}

describe('bulk runner', () => {
  it('emits results in input order at concurrency 64 while answers arrive out of order, and uses the whole pool', async () => {
    let inFlight = 0;
    let peak = 0;
    let seed = 7;
    const { results, summary } = await run({
      items: itemsOf(Array.from({ length: 1000 }, (_, i) => sendItem(i + 1))),
      concurrency: 64,
      send: async (req) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        await ticks(seed % 20);
        inFlight--;
        return created(lineOf(req));
      },
    });
    expect(results.map((r) => r.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(results[9]).toEqual({ line: 10, ok: true, outcome: 'created', entry_id: 'id-10' });
    expect(peak).toBe(64);
    expect(summary).toMatchObject({ created: 1000, alreadyDone: 0, failed: 0, exitCode: 0, cancelled: false });
    expect(summary.maxBuffered).toBeLessThanOrEqual(64 * 4);
  });

  it('a stalled line holds back at most `window` later lines: memory stays bounded', async () => {
    let release: (() => void) | undefined;
    const pulled = { count: 0 };
    const sent: number[] = [];
    const done = run({
      items: itemsOf(Array.from({ length: 500 }, (_, i) => sendItem(i + 1)), pulled),
      concurrency: 8,
      window: 16,
      send: async (req) => {
        const line = lineOf(req);
        sent.push(line);
        if (line === 1) await new Promise<void>((resolve) => (release = resolve));
        return created(line);
      },
    });
    await ticks(50);
    expect(sent).toHaveLength(16);
    expect(pulled.count).toBe(16);
    release?.();
    const { results, summary } = await done;
    expect(results).toHaveLength(500);
    // Line 1's result plus the 15 finished behind it, never more than the window.
    expect(summary.maxBuffered).toBe(16);
  });

  it('a slow reader of the results holds the pool back (backpressure)', async () => {
    const pulled = { count: 0 };
    let unblock: (() => void) | undefined;
    const emitted: number[] = [];
    const done = runBulk({
      items: itemsOf(Array.from({ length: 200 }, (_, i) => sendItem(i + 1)), pulled),
      concurrency: 4,
      window: 8,
      timing: virtualTiming(),
      send: async (req) => created(lineOf(req)),
      emit: async (r) => {
        emitted.push(r.line);
        if (r.line === 1) await new Promise<void>((resolve) => (unblock = resolve));
      },
    });
    await ticks(50);
    expect(emitted).toEqual([1]);
    expect(pulled.count).toBe(8);
    unblock?.();
    await done;
    expect(emitted).toHaveLength(200);
  });

  it('429 pauses every worker for Retry-After, then ramps up from one; the line is retried and never fails', async () => {
    const timing = virtualTiming();
    const starts: Array<[number, number]> = [];
    let limited = false;
    const { results, summary } = await run({
      items: itemsOf(Array.from({ length: 40 }, (_, i) => sendItem(i + 1))),
      concurrency: 8,
      timing,
      send: async (req) => {
        const line = lineOf(req);
        starts.push([line, timing.now()]);
        await ticks(1);
        if (line === 3 && !limited) {
          limited = true;
          throw new ApiError(429, 'rate_limited', 'slow down', undefined, 2);
        }
        return created(line);
      },
    });
    expect(summary).toMatchObject({ created: 40, failed: 0, exitCode: 0 });
    expect(results.every((r) => r.ok)).toBe(true);
    const retried = starts.filter(([line]) => line === 3);
    expect(retried).toHaveLength(2);
    expect(retried[1]?.[1]).toBeGreaterThanOrEqual(2000);
    // Nothing started during the pause.
    expect(starts.filter(([, at]) => at > 0 && at < 2000)).toEqual([]);
  });

  it('the gate ramps 1 → 2 → 4 → 8 after a pause and caps the request rate', async () => {
    const timing = virtualTiming();
    const gate = new PoolGate(timing);
    gate.configure(8, undefined);
    gate.pause(1000);
    expect(gate.limit).toBe(1);
    const limits: number[] = [];
    for (let i = 0; i < 7; i++) {
      gate.succeeded();
      limits.push(gate.limit);
    }
    expect(limits).toEqual([2, 2, 4, 4, 4, 4, 8]);

    const capped = new PoolGate(timing);
    capped.configure(4, 10);
    const at: number[] = [];
    for (let i = 0; i < 4; i++) {
      await capped.admit();
      at.push(timing.now());
    }
    expect(at.map((t) => t - (at[0] ?? 0))).toEqual([0, 100, 200, 300]);
  });

  it('5xx and dropped connections are retried with the same key and bytes; a line that keeps failing is reported; exit = highest', async () => {
    const seen = new Map<number, SendRequest[]>();
    const { results, summary } = await run({
      items: itemsOf([1, 2, 3, 4].map(sendItem)),
      retries: 3,
      send: async (req) => {
        const line = lineOf(req);
        const calls = seen.get(line) ?? [];
        calls.push(req);
        seen.set(line, calls);
        if (line === 1 && calls.length < 3) throw new ApiError(500, 'internal_error', 'boom', undefined);
        if (line === 2) throw new NetworkError('socket hang up', 'connection_reset');
        if (line === 3) throw new ApiError(404, 'not_found', 'no such parcel', undefined);
        return created(line);
      },
    });
    expect(results).toEqual([
      { line: 1, ok: true, outcome: 'created', entry_id: 'id-1' },
      { line: 2, ok: false, outcome: 'failed', error: { code: 'connection_reset', message: 'socket hang up' } },
      { line: 3, ok: false, outcome: 'failed', error: { status: 404, code: 'not_found', message: 'no such parcel' } },
      { line: 4, ok: true, outcome: 'created', entry_id: 'id-4' },
    ]);
    expect(seen.get(1)?.map((r) => r.idempotencyKey)).toEqual(['key-1-abcdef', 'key-1-abcdef', 'key-1-abcdef']);
    expect(seen.get(1)?.map((r) => Buffer.from(r.body).toString())).toEqual(['{"n":1}', '{"n":1}', '{"n":1}']);
    expect(seen.get(2)).toHaveLength(4);
    expect(seen.get(3)).toHaveLength(1);
    expect(summary).toMatchObject({ created: 2, failed: 2, exitCode: 8 });
  });

  it('invalid and replayed items are reported without sending; exit 2 for an invalid line', async () => {
    let sends = 0;
    const { results, summary } = await run({
      items: itemsOf([
        { kind: 'replayed', line: 1, entryId: 'id-1' },
        { kind: 'invalid', line: 2, field: 'number', message: 'must be a string' },
        { kind: 'invalid', line: 3, field: '', message: 'is not valid JSON' },
      ]),
      send: async () => {
        sends++;
        return created(0);
      },
    });
    expect(sends).toBe(0);
    expect(results).toEqual([
      { line: 1, ok: true, outcome: 'already_done', entry_id: 'id-1' },
      { line: 2, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: 'number must be a string', field: 'number' } },
      { line: 3, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: 'is not valid JSON' } },
    ]);
    expect(summary).toMatchObject({ created: 0, alreadyDone: 1, failed: 2, exitCode: 2 });
  });

  it('abort: nothing more is sent, the requests in flight finish and are reported, exit 130', async () => {
    const stop = new AbortController();
    const { results, summary } = await run({
      items: itemsOf(Array.from({ length: 100 }, (_, i) => sendItem(i + 1))),
      concurrency: 4,
      signal: stop.signal,
      send: async (req) => {
        const line = lineOf(req);
        if (line === 10) stop.abort();
        await ticks(3);
        return created(line);
      },
    });
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => r.line)).toEqual(Array.from({ length: results.length }, (_, i) => i + 1));
    expect(results.length).toBeGreaterThanOrEqual(10);
    expect(results.length).toBeLessThanOrEqual(13);
    expect(summary).toMatchObject({ cancelled: true, exitCode: 130, failed: 0 });
  });

  it('a second abort abandons the requests in flight: they are reported as cancelled (left uncertain)', async () => {
    const stop = new AbortController();
    const abandon = new AbortController();
    const { results, summary } = await run({
      items: itemsOf(Array.from({ length: 10 }, (_, i) => sendItem(i + 1))),
      concurrency: 2,
      signal: stop.signal,
      abandon: abandon.signal,
      send: (req, signal) =>
        new Promise<SendResponse>((resolve, reject) => {
          if (lineOf(req) === 2) {
            stop.abort();
            abandon.abort();
          }
          if (signal?.aborted) reject(new CancelledError());
          signal?.addEventListener('abort', () => reject(new CancelledError()));
        }),
    });
    expect(results.map((r) => [r.line, r.error?.code])).toEqual([
      [1, 'cancelled'],
      [2, 'cancelled'],
    ]);
    expect(summary).toMatchObject({ cancelled: true, exitCode: 130, failed: 0, notSent: 2 });
  });

  it('refuses a concurrency outside 1..64', async () => {
    await expect(run({ items: itemsOf([]), concurrency: 65, send: async () => created(0) })).rejects.toThrow('concurrency must be an integer from 1 to 64');
    await expect(run({ items: itemsOf([]), concurrency: 0, send: async () => created(0) })).rejects.toThrow(RangeError);
  });

  it('a reader that goes away (closed pipe) ends the run with its error', async () => {
    await expect(
      runBulk({
        items: itemsOf(Array.from({ length: 50 }, (_, i) => sendItem(i + 1))),
        timing: virtualTiming(),
        send: async (req) => created(lineOf(req)),
        emit: (r) => {
          if (r.line === 5) throw new Error('EPIPE');
        },
      }),
    ).rejects.toThrow('EPIPE');
  });
});

describe('bulk runner cancellation while waiting', () => {
  it('an abort during a 429 pause stops the waiting lines instead of sending them after the pause', async () => {
    const stop = new AbortController();
    const timing: Timing = {
      now: () => 0,
      // Never wakes by itself: only the abort ends the pause.
      sleep: (_ms, signal) => new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })),
    };
    const calls: number[] = [];
    const done = runBulk({
      items: itemsOf([1, 2].map(sendItem)),
      concurrency: 2,
      signal: stop.signal,
      timing,
      emit: () => undefined,
      send: retried(async (req) => {
        calls.push(lineOf(req));
        throw new ApiError(429, 'rate_limited', 'slow down', undefined, 60);
      }),
    });
    await ticks(10);
    stop.abort();
    const summary = await done;
    // Line 1 waited out the pause and was cancelled, not sent again. Line 2 was never sent: the pool
    // restarts at one request in flight after a 429, which line 1 held while it waited, so line 2
    // was not even taken from the input (the next run sends it).
    expect(calls).toEqual([1]);
    expect(summary).toMatchObject({ cancelled: true, exitCode: 130, failed: 0, notSent: 1, created: 0 });
  });
});

describe('bulk runner failures of its surroundings', () => {
  it('input that breaks off mid-way: the requests in flight still finish and are recorded, then the error surfaces', async () => {
    const recorded: number[] = [];
    async function* broken(): AsyncGenerator<WorkItem> {
      yield sendItem(1);
      yield sendItem(2);
      throw new Error('not valid CSV');
    }
    await expect(
      runBulk({
        items: broken(),
        timing: virtualTiming(),
        emit: () => undefined,
        recorder: { sent: () => undefined, flush: () => undefined, done: (item) => void recorded.push(item.line), rejected: () => undefined },
        send: async (req) => {
          await ticks(5);
          return created(lineOf(req));
        },
      }),
    ).rejects.toThrow('not valid CSV');
    expect(recorded.sort()).toEqual([1, 2]);
  });
});

describe('bulk runner journaling', () => {
  it('journals a whole batch with one flush before any of it is sent, never journals a line again, and reports a line only once its outcome is written', async () => {
    const log: string[] = [];
    async function* batches(): AsyncGenerator<WorkItem[]> {
      yield [1, 2, 3, 4, 5].map(sendItem);
      yield [{ ...(sendItem(6) as Extract<WorkItem, { kind: 'send' }>), journaled: true }, sendItem(7)];
    }
    const summary = await runBulk({
      items: batches(),
      concurrency: 2,
      timing: virtualTiming(),
      emit: (result) => void log.push(`emit ${result.line}`),
      recorder: {
        sent: (item) => void log.push(`sent ${item.line}`),
        flush: () => void log.push('flush'),
        done: (item) => void log.push(`done ${item.line}`),
        rejected: () => undefined,
      },
      send: async (req) => {
        log.push(`send ${lineOf(req)}`);
        await ticks(1);
        return created(lineOf(req));
      },
    });
    expect(summary.created).toBe(7);
    // Each batch's records and their flush come before the first send of that batch.
    expect(log.slice(0, 8)).toEqual(['sent 1', 'sent 2', 'sent 3', 'sent 4', 'sent 5', 'flush', 'send 1', 'send 2']);
    const sent7 = log.indexOf('sent 7');
    expect(log[sent7 + 1]).toBe('flush');
    expect(log.indexOf('send 6')).toBeGreaterThan(sent7 + 1);
    expect(log.filter((entry) => entry.startsWith('sent '))).toEqual(['sent 1', 'sent 2', 'sent 3', 'sent 4', 'sent 5', 'sent 7']);
    // Every line is emitted in order, after a flush that follows its outcome record.
    expect(log.filter((entry) => entry.startsWith('emit '))).toEqual([1, 2, 3, 4, 5, 6, 7].map((line) => `emit ${line}`));
    for (let line = 1; line <= 7; line++) {
      const done = log.indexOf(`done ${line}`);
      const emitted = log.indexOf(`emit ${line}`);
      expect(log.slice(done, emitted)).toContain('flush');
    }
  });
});
