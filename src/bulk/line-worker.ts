import { setMaxListeners } from 'node:events';
import type { PoolGate } from '../api/core/gate.js';
import type { OutageCircuit } from '../api/core/policy.js';
import { backoffDelay, isNoAnswer, pauseFor } from '../api/core/policy.js';
import { ApiError, CancelledError, NetworkError } from '../errors.js';
import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './limits.js';
import type { ResultLine, RunRecorder, Send, SendItem, SendResponse, WorkItem } from './types.js';

/**
 * One line of a bulk run (or an outbox flush) sent until it has an outcome, by the request core's
 * policy (src/api/core/): its retries and backoff, the pool gate's pauses and pace, cancellation.
 */

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
  /** The outage stop (src/api/core/policy.ts): once open, no line is sent any more. */
  circuit?: OutageCircuit;
  /** What becomes of a line the outage kept from being sent (e.g. it goes to the outbox); default: not_sent. */
  unsent?(item: SendItem): Promise<ResultLine>;
}

/** The error codes of result lines that no answer of the service gave. */
export const INVALID_LINE = 'invalid_line';
export const CANCELLED = 'cancelled';
export const UNEXPECTED = 'unexpected';
/** Not sent because the service could not be reached (the outage stop). */
export const UNREACHABLE = 'service_unreachable';

/** Sends one item with its retries and pauses; never throws. */
export class LineWorker {
  private readonly retries: number;
  private readonly random: () => number;
  /** Waiting (a pause, the rate cap, a backoff) ends at the first abort: nothing more is sent. One for the run, not one per line. */
  private readonly stopWaiting: AbortSignal | undefined;

  constructor(
    private readonly opts: LineWorkerOptions,
    private readonly gate: PoolGate,
  ) {
    this.retries = opts.retries ?? DEFAULT_BULK_RETRIES;
    this.random = opts.random ?? Math.random;
    this.stopWaiting = anySignal(opts.signal, opts.abandon, opts.circuit?.signal);
    // Every line waiting (up to the whole pool during a pause) listens to it: a bounded number, not a leak.
    if (this.stopWaiting !== undefined) setMaxListeners(4 * MAX_CONCURRENCY, this.stopWaiting);
  }

  /** The result of a line that is not sent. */
  immediate(item: Exclude<WorkItem, { kind: 'send' }>): ResultLine {
    const line = item.line;
    if (item.kind === 'queued') return queued(line);
    if (item.kind === 'replayed') return { line, ok: true, outcome: 'already_done', ...(item.entryId === undefined ? {} : { entry_id: item.entryId }) };
    if (item.kind === 'skipped') {
      return { line, ok: true, outcome: 'skipped', ...(item.entryId === undefined ? {} : { entry_id: item.entryId }), ...(item.matched === undefined ? {} : { matched: item.matched }), reason: item.reason };
    }
    const message = item.field === '' ? item.message : `${item.field} ${item.message}`;
    return { line, ok: false, outcome: 'failed', error: { code: INVALID_LINE, message, ...(item.field === '' ? {} : { field: item.field }) } };
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
    const circuit = this.opts.circuit;
    const streak = circuit?.streak();
    for (let failures = 0; ; ) {
      if (circuit?.open) return this.notSent(item);
      const admission = this.gate.admit(stopWaiting);
      if (admission !== undefined && !(await this.waited(admission))) return this.stopped(item);
      if (stopWaiting?.aborted) {
        this.gate.settle();
        return this.stopped(item);
      }
      let response: SendResponse;
      try {
        response = await this.opts.send(item.request, abandon);
      } catch (error) {
        this.gate.settle();
        if (error instanceof CancelledError || abandon?.aborted) return cancelled(line);
        if (error instanceof ApiError) circuit?.answered();
        const pause = pauseFor(error);
        if (pause !== undefined) {
          this.gate.pause(pause);
          continue;
        }
        const transient = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
        if (error instanceof ApiError && !transient) {
          this.opts.recorder?.rejected(item, error.status, error.code);
          return { line, ok: false, outcome: 'failed', error: { status: error.status, code: error.code, message: error.message } };
        }
        if (!transient) return { line, ok: false, outcome: 'failed', error: { code: UNEXPECTED, message: String(error) } };
        if (circuit !== undefined && isNoAnswer(error) && streak?.failed(error as NetworkError)) return this.notSent(item);
        if (++failures > this.retries) {
          // Left uncertain in the journal: the next run resends it with the same key and bytes.
          return { line, ok: false, outcome: 'failed', error: describeTransient(error) };
        }
        if (!(await this.waited(this.gate.timing.sleep(backoffDelay(failures, this.random), stopWaiting))) || stopWaiting?.aborted) return this.stopped(item);
        continue;
      }
      this.gate.settle();
      this.gate.succeeded();
      circuit?.answered();
      const entryId = response.entryId ?? item.parcel;
      this.opts.recorder?.done(item, response.status, entryId);
      const outcome = response.replayed ? 'replayed' : 'created';
      return entryId === undefined ? { line, ok: true, outcome } : { line, ok: true, outcome, entry_id: entryId };
    }
  }

  /** A line stopped before an answer: by the outage stop, or else by Ctrl-C. */
  private stopped(item: SendItem): ResultLine | Promise<ResultLine> {
    return this.opts.circuit?.open && this.opts.signal?.aborted !== true ? this.notSent(item) : cancelled(item.line);
  }

  /** A line the outage kept from being sent: left uncertain in the journal (the next run sends it with the same key), or handed to `unsent`. */
  private async notSent(item: SendItem): Promise<ResultLine> {
    if (this.opts.unsent !== undefined) return this.opts.unsent(item);
    return { line: item.line, ok: false, outcome: 'not_sent', error: { code: UNREACHABLE, message: 'not sent: the service cannot be reached; the next run sends it with the same key' } };
  }

  /** False when the wait was cut short because the run was stopped. */
  private async waited(wait: Promise<void>): Promise<boolean> {
    try {
      await wait;
      return true;
    } catch (error) {
      if (error instanceof CancelledError) return false;
      throw error;
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

/** The result of a line kept in the outbox. */
export function queued(line: number): ResultLine {
  return { line, ok: false, outcome: 'queued' };
}

function cancelled(line: number): ResultLine {
  return { line, ok: false, outcome: 'not_sent', error: { code: CANCELLED, message: 'cancelled before an answer; the next run resends it with the same key' } };
}

