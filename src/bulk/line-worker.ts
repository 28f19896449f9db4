import { setMaxListeners } from 'node:events';
import type { PoolGate } from '../api/core/gate.js';
import type { OutageCircuit } from '../api/core/policy.js';
import { GaveUp } from '../api/core/retry.js';
import type { LineRun } from '../api/core/send.js';
import { ApiError, CancelledError, NetworkError } from '../errors.js';
import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './limits.js';
import type { ResultLine, RunRecorder, Send, SendItem, SendResponse, WorkItem } from './types.js';

/**
 * One line of a bulk run (or an outbox flush) sent until it has an outcome by the sender's request
 * chain (its retry piece, src/api/core/retry.ts: retries and back-off, the pool gate's admission,
 * pauses and pace, the outage stop), told to count as a bulk line does: its pauses never count.
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
  /** How every line is sent: one for the run, not one per line. */
  private readonly run: LineRun;

  constructor(
    private readonly opts: LineWorkerOptions,
    private readonly gate: PoolGate,
  ) {
    const stopWaiting = anySignal(opts.signal, opts.abandon, opts.circuit?.signal);
    // Every line waiting (up to the whole pool during a pause) listens to it: a bounded number, not a leak.
    if (stopWaiting !== undefined) setMaxListeners(4 * MAX_CONCURRENCY, stopWaiting);
    this.run = {
      // Its pauses never count; the same key and bytes make every line repeatable.
      counting: { retries: opts.retries ?? DEFAULT_BULK_RETRIES, pausesCount: false, repeatable: true, circuit: opts.circuit },
      // Admission through the run's gate; waiting (a pause, the rate cap, a back-off) ends at the first abort.
      retry: { gate, wait: stopWaiting, sleep: gate.timing.sleep, random: opts.random ?? Math.random },
      abandon: opts.abandon,
    };
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
    let response: SendResponse;
    try {
      response = await this.opts.send(item.request, this.run);
    } catch (error) {
      if (error instanceof CancelledError) return abandon?.aborted ? cancelled(line) : this.stopped(item);
      if (!(error instanceof GaveUp)) throw error;
      const failure = error.failure;
      if (failure instanceof CancelledError || abandon?.aborted) return cancelled(line);
      if (this.opts.circuit?.open) return this.notSent(item);
      if (failure instanceof ApiError && failure.status < 500 && failure.status !== 429) {
        this.opts.recorder?.rejected(item, failure.status, failure.code);
        return { line, ok: false, outcome: 'failed', error: { status: failure.status, code: failure.code, message: failure.message } };
      }
      // Left uncertain in the journal: the next run resends it with the same key and bytes.
      if (failure instanceof ApiError || failure instanceof NetworkError) return { line, ok: false, outcome: 'failed', error: describeTransient(failure) };
      return { line, ok: false, outcome: 'failed', error: { code: UNEXPECTED, message: String(failure) } };
    }
    const entryId = response.entryId ?? item.parcel;
    this.opts.recorder?.done(item, response.status, entryId);
    const outcome = response.replayed ? 'replayed' : 'created';
    return entryId === undefined ? { line, ok: true, outcome } : { line, ok: true, outcome, entry_id: entryId };
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

