import { setMaxListeners } from 'node:events';
import { ApiError, CancelledError, EXIT, exitCodeFor, NetworkError } from '../errors.js';
import type { ExitCode } from '../errors.js';
import type { Timing } from './gate.js';
import { Gate, realTiming } from './gate.js';
import type { ResultLine, Send, SendRequest } from './types.js';

/**
 * Runs the requests of a bulk run (or an outbox flush) over a pool of N, and emits one result per
 * item in input order through a bounded reorder window: a slow line holds back at most `window`
 * later ones, and a slow reader of the results (stdout) holds back the pool.
 */

export type WorkItem =
  | {
      kind: 'send';
      line: number;
      request: SendRequest;
      /** The parcel a history line is about (its entry_id is the result's). */
      parcel: string | undefined;
      /** Fields of the line that were not part of the body. */
      ignored: number;
      /** Already in the journal from an earlier run: send it again without writing it anew. */
      journaled: boolean;
    }
  | { kind: 'replayed'; line: number; entryId: string | undefined }
  | { kind: 'invalid'; line: number; field: string; message: string };

/** Where the runner records what it sends and learns (the journal); absent = no journal. */
export interface RunRecorder {
  /**
   * The exact request of an item about to be sent. May only buffer: `flush` comes before the item
   * is sent. Items are recorded a batch at a time, before the first of them starts, so an item may
   * be recorded and then not sent (the run stops first): the next run resends it with the same key
   * and bytes, as it does any item left uncertain.
   */
  sent(item: Extract<WorkItem, { kind: 'send' }>): void;
  /** Writes what `sent` buffered (not necessarily fsync'd); called before those items are sent. */
  flush(): void;
  done(line: number, status: number, entryId: string | undefined): void;
  rejected(line: number, status: number, code: string): void;
}

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;
export const DEFAULT_BULK_RETRIES = 10;
/** Pause when a 429 carries no Retry-After. */
export const DEFAULT_PAUSE_MS = 1_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 5_000;

export interface RunOptions {
  /** One at a time or in batches (each batch is journaled with one write before any of it is sent). */
  items: AsyncIterable<WorkItem | readonly WorkItem[]>;
  send: Send;
  /** Receives each result in input order; a returned promise holds the pool back until it settles. */
  emit(result: ResultLine): void | Promise<void>;
  recorder?: RunRecorder;
  concurrency?: number;
  /** Extra attempts for a 5xx or a dropped connection (429 pauses never count). */
  retries?: number;
  /** Requests per second. */
  rate?: number;
  /** First abort: send nothing more, let the requests in flight finish. */
  signal?: AbortSignal;
  /** Abandon the requests in flight too (a second Ctrl-C); they stay uncertain in the journal. */
  abandon?: AbortSignal;
  timing?: Timing;
  /** In [0, 1), for the backoff jitter. */
  random?: () => number;
  /** Most items started but not yet emitted (default 4 × concurrency). */
  window?: number;
}

export interface RunSummary {
  /** Lines sent and confirmed by this run. */
  created: number;
  /** Lines an earlier run had confirmed: not sent. */
  alreadyDone: number;
  failed: number;
  /** Fields ignored on history lines (not part of the body). */
  ignoredFields: number;
  elapsedMs: number;
  /** Lines per second over the whole run. */
  rate: number;
  /** Stopped by `signal` before the input was exhausted. */
  cancelled: boolean;
  /** 0 when every line succeeded, else the highest exit code among failed lines (130 when cancelled). */
  exitCode: ExitCode;
  /** Most results held at once waiting for an earlier line (bounded by `window`). */
  maxBuffered: number;
}

export async function runBulk(opts: RunOptions): Promise<RunSummary> {
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const timing = opts.timing ?? realTiming;
  const gate = new Gate(concurrency, opts.rate, timing);
  const window = opts.window ?? concurrency * 4;
  const started = timing.now();
  const summary: RunSummary = { created: 0, alreadyDone: 0, failed: 0, ignoredFields: 0, elapsedMs: 0, rate: 0, cancelled: false, exitCode: EXIT.OK, maxBuffered: 0 };
  const worker = new LineWorker(opts, gate, timing);

  const finished = new Map<number, ResultLine>();
  let nextSeq = 0;
  let nextEmit = 0;
  let inFlight = 0;
  /** An emit that returned a promise (the reader is slow): nothing more is emitted until it settles. */
  let emitting: Promise<void> | undefined;
  /** The reader of the results, or the journal, failed: nothing more is emitted or started. */
  let emitFailure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const changed = (): void => {
    wake?.();
    wake = undefined;
  };
  opts.signal?.addEventListener('abort', changed, { once: true });

  // Emits what is ready in order, synchronously while the reader keeps up. The outcomes recorded
  // for those lines are written first: a line is never reported before its outcome is in the journal.
  const emitReady = (): void => {
    if (emitting === undefined && emitFailure === undefined && finished.has(nextEmit)) {
      try {
        opts.recorder?.flush();
      } catch (error) {
        emitFailure = { error };
      }
    }
    let result: ResultLine | undefined;
    while (emitting === undefined && emitFailure === undefined && (result = finished.get(nextEmit)) !== undefined) {
      finished.delete(nextEmit);
      tally(summary, result);
      let returned: void | Promise<void>;
      try {
        returned = opts.emit(result);
      } catch (error) {
        emitFailure = { error };
        break;
      }
      if (returned === undefined) {
        nextEmit++;
        continue;
      }
      emitting = returned.then(
        () => {
          emitting = undefined;
          nextEmit++;
          emitReady();
        },
        (error: unknown) => {
          emitting = undefined;
          emitFailure ??= { error };
          changed();
        },
      );
    }
    changed();
  };
  const finish = (seq: number, result: ResultLine): void => {
    finished.set(seq, result);
    if (finished.size > summary.maxBuffered) summary.maxBuffered = finished.size;
  };
  // Answers are emitted once per turn of the event loop, after every answer of that turn is in:
  // their outcomes reach the journal with one write. The pool refills at once.
  let emitScheduled = false;
  const emitAnswered = (): void => {
    emitScheduled = false;
    emitReady();
  };
  const onAnswer = (seq: number) => (result: ResultLine) => {
    inFlight--;
    finish(seq, result);
    if (!emitScheduled) {
      emitScheduled = true;
      setImmediate(emitAnswered);
    }
    changed();
  };

  const iterator = opts.items[Symbol.asyncIterator]();
  let inputFailure: { error: unknown } | undefined;
  let pending: readonly WorkItem[] = [];
  let at = 0;
  try {
    for (;;) {
      while (!opts.signal?.aborted && !emitFailure && (inFlight >= gate.limit || nextSeq - nextEmit >= window)) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (emitFailure) break;
      if (opts.signal?.aborted) {
        summary.cancelled = true;
        break;
      }
      if (at === pending.length) {
        const next = await iterator.next();
        if (next.done) break;
        pending = Array.isArray(next.value) ? next.value : [next.value as WorkItem];
        at = 0;
        // The whole batch is journaled with one write before any of it is sent: one write per
        // batch instead of one per answer that frees a place in the pool.
        if (opts.recorder !== undefined) {
          for (const item of pending) if (item.kind === 'send' && !item.journaled) opts.recorder.sent(item);
          opts.recorder.flush();
        }
        continue;
      }
      while (at < pending.length && inFlight < gate.limit && nextSeq - nextEmit < window) {
        const item = pending[at++] as WorkItem;
        const seq = nextSeq++;
        if (item.kind !== 'send') {
          finish(seq, worker.immediate(item));
          emitReady();
          continue;
        }
        summary.ignoredFields += item.ignored;
        inFlight++;
        void worker.send(item).then(onAnswer(seq));
      }
    }
  } catch (error) {
    inputFailure = { error };
  } finally {
    await iterator.return?.();
  }
  // Even when the input or the reader of the results fails, the requests in flight finish and
  // their outcomes reach the journal before the caller closes it.
  while (inFlight > 0 || (!emitFailure && nextEmit < nextSeq)) {
    await new Promise<void>((resolve) => (wake = resolve));
  }
  await emitting;
  opts.signal?.removeEventListener('abort', changed);
  if (emitFailure) throw emitFailure.error;
  if (inputFailure) throw inputFailure.error;

  summary.elapsedMs = timing.now() - started;
  const lines = summary.created + summary.alreadyDone + summary.failed;
  summary.rate = summary.elapsedMs > 0 ? (lines * 1000) / summary.elapsedMs : 0;
  if (summary.cancelled) summary.exitCode = EXIT.CANCELLED;
  return summary;
}

function tally(summary: RunSummary, result: ResultLine): void {
  if (result.replayed) summary.alreadyDone++;
  else if (result.ok) summary.created++;
  else {
    summary.failed++;
    const code = exitCodeOfResult(result);
    if (code > summary.exitCode) summary.exitCode = code;
  }
}

function exitCodeOfResult(result: ResultLine): ExitCode {
  const error = result.error;
  if (error === undefined) return EXIT.OK;
  if (error.code === INVALID_LINE) return EXIT.USAGE;
  if (error.code === CANCELLED) return EXIT.CANCELLED;
  if (error.code === UNEXPECTED) return EXIT.UNEXPECTED;
  if (error.status === undefined) return EXIT.UNAVAILABLE;
  return exitCodeFor(new ApiError(error.status, error.code, error.message, undefined));
}

export const INVALID_LINE = 'invalid_line';
const CANCELLED = 'cancelled';
const UNEXPECTED = 'unexpected';

/** Sends one item with its retries and pauses; never throws. */
class LineWorker {
  private readonly retries: number;
  private readonly random: () => number;
  /** Waiting (a pause, the rate cap, a backoff) ends at the first abort: nothing more is sent. One for the run, not one per line. */
  private readonly stopWaiting: AbortSignal | undefined;

  constructor(
    private readonly opts: RunOptions,
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

  /** Sends a line (already journaled) until it has an outcome. */
  async send(item: Extract<WorkItem, { kind: 'send' }>): Promise<ResultLine> {
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
        this.opts.recorder?.done(line, response.status, entryId);
        return entryId === undefined ? { line, ok: true } : { line, ok: true, entry_id: entryId };
      } catch (error) {
        if (error instanceof CancelledError || abandon?.aborted) return cancelled(line);
        if (error instanceof ApiError && (error.status === 429 || (error.status === 503 && error.retryAfter !== undefined))) {
          this.gate.pause(error.retryAfter === undefined ? DEFAULT_PAUSE_MS : error.retryAfter * 1000);
          continue;
        }
        const transient = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
        if (error instanceof ApiError && !transient) {
          this.opts.recorder?.rejected(line, error.status, error.code);
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

