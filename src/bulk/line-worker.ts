import { setMaxListeners } from 'node:events';
import { ApiError, CancelledError, NetworkError } from '../errors.js';
import type { Gate, Timing } from './gate.js';
import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './limits.js';
import type { ResultLine, RunRecorder, Send, WorkItem } from './types.js';

/** One line of a bulk run (or an outbox flush) sent until it has an outcome: retries, backoff, pool-wide pauses, cancellation. */

/** Pause when a 429 carries no Retry-After. */
export const DEFAULT_PAUSE_MS = 1_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 5_000;

/** What the worker takes from the run's options. */
export interface LineWorkerOptions {
  send: Send;
  recorder?: RunRecorder;
  /** Extra attempts for a 5xx or a dropped connection (429 pauses never count). */
  retries?: number;
  /** First abort: send nothing more, let the requests in flight finish. */
  signal?: AbortSignal;
  /** Abandon the requests in flight too (a second Ctrl-C); they stay uncertain in the journal. */
  abandon?: AbortSignal;
  /** In [0, 1), for the backoff jitter. */
  random?: () => number;
}

/** The error codes of result lines that no answer of the service gave. */
export const INVALID_LINE = 'invalid_line';
export const CANCELLED = 'cancelled';
export const UNEXPECTED = 'unexpected';

/** Sends one item with its retries and pauses; never throws. */
export class LineWorker {
  private readonly retries: number;
  private readonly random: () => number;
  /** Waiting (a pause, the rate cap, a backoff) ends at the first abort: nothing more is sent. One for the run, not one per line. */
  private readonly stopWaiting: AbortSignal | undefined;

  constructor(
    private readonly opts: LineWorkerOptions,
    private readonly gate: Gate,
    private readonly timing: Timing,
  ) {
    this.retries = opts.retries ?? DEFAULT_BULK_RETRIES;
    this.random = opts.random ?? Math.random;
    this.stopWaiting = anySignal(opts.signal, opts.abandon);
    // Every line waiting (up to the whole pool during a pause) listens to it: a bounded number, not a leak.
    if (this.stopWaiting !== undefined) setMaxListeners(4 * MAX_CONCURRENCY, this.stopWaiting);
  }

  /** The result of a line that is not sent. */
  immediate(item: Exclude<WorkItem, { kind: 'send' }>): ResultLine {
    const line = item.line;
    if (item.kind === 'replayed') return item.entryId === undefined ? { line, ok: true, replayed: true } : { line, ok: true, replayed: true, entry_id: item.entryId };
    const message = item.field === '' ? item.message : `${item.field} ${item.message}`;
    return { line, ok: false, error: { code: INVALID_LINE, message, ...(item.field === '' ? {} : { field: item.field }) } };
  }

  /** Sends a line (already journaled) until it has an outcome; an edited line's result names what its earlier version created. */
  async send(item: Extract<WorkItem, { kind: 'send' }>): Promise<ResultLine> {
    const result = await this.outcome(item);
    if (item.earlier !== undefined) result.earlier_entry_id = item.earlier;
    return result;
  }

  private async outcome(item: Extract<WorkItem, { kind: 'send' }>): Promise<ResultLine> {
    const line = item.line;
    const abandon = this.opts.abandon;
    const stopWaiting = this.stopWaiting;
    for (let failures = 0; ; ) {
      const wait = this.gate.admit(stopWaiting);
      if (wait !== undefined) await wait;
      if (stopWaiting?.aborted) return cancelled(line);
      try {
        const response = await this.opts.send(item.request, abandon);
        this.gate.succeeded();
        const entryId = response.entryId ?? item.parcel;
        this.opts.recorder?.done(item, response.status, entryId);
        return entryId === undefined ? { line, ok: true } : { line, ok: true, entry_id: entryId };
      } catch (error) {
        if (error instanceof CancelledError || abandon?.aborted) return cancelled(line);
        if (error instanceof ApiError && (error.status === 429 || (error.status === 503 && error.retryAfter !== undefined))) {
          this.gate.pause(error.retryAfter === undefined ? DEFAULT_PAUSE_MS : error.retryAfter * 1000);
          continue;
        }
        const transient = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
        if (error instanceof ApiError && !transient) {
          this.opts.recorder?.rejected(item, error.status, error.code);
          return { line, ok: false, error: { status: error.status, code: error.code, message: error.message } };
        }
        if (!transient) return { line, ok: false, error: { code: UNEXPECTED, message: String(error) } };
        if (++failures > this.retries) {
          // Left uncertain in the journal: the next run resends it with the same key and bytes.
          return { line, ok: false, error: describeTransient(error) };
        }
        await this.timing.sleep(backoff(failures, this.random), stopWaiting);
      }
    }
  }
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return given.length <= 1 ? given[0] : AbortSignal.any(given);
}

function describeTransient(error: ApiError | NetworkError): NonNullable<ResultLine['error']> {
  if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
  return { code: error.code, message: error.message };
}

function backoff(failures: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

function cancelled(line: number): ResultLine {
  return { line, ok: false, error: { code: CANCELLED, message: 'cancelled before an answer; the next run resends it with the same key' } };
}

