import { ApiError, EXIT, exitCodeFor } from '../errors.js';
import type { ExitCode } from '../errors.js';
import { PoolGate } from '../api/core/gate.js';
import type { Timing } from '../api/core/sleep.js';
import { realTiming } from '../api/core/sleep.js';
import type { LineWorkerOptions } from './line-worker.js';
import { CANCELLED, INVALID_LINE, LineWorker, UNEXPECTED, UNREACHABLE } from './line-worker.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';
import type { ResultLine, WorkItem } from './types.js';

/**
 * Runs the requests of a bulk run (or an outbox flush) over a pool of N, and emits one result per
 * item in input order through a bounded reorder window: a slow line holds back at most `window`
 * later ones, and a slow reader of the results (stdout) holds back the pool.
 */

export interface RunOptions extends LineWorkerOptions {
  /** One at a time or in batches (each batch is journaled with one write before any of it is sent). */
  items: AsyncIterable<WorkItem | readonly WorkItem[]>;
  /** Receives each result in input order; a returned promise holds the pool back until it settles. */
  emit(result: ResultLine): void | Promise<void>;
  concurrency?: number;
  /** Requests per second. */
  rate?: number;
  /** The sender's pool gate (the process's, for its service); else one of the run's own on `timing`. */
  gate?: PoolGate;
  timing?: Timing;
  /** Most items started but not yet emitted (default 4 × concurrency). */
  window?: number;
}

export interface RunSummary {
  /** Lines sent and confirmed by this run. */
  created: number;
  /** Lines sent whose answer the service replayed from an earlier request with the same key. */
  replayed: number;
  /** Lines an earlier run had confirmed: not sent. */
  alreadyDone: number;
  /** Lines kept in the outbox to send later. */
  queued: number;
  /** Lines not sent on purpose (they match what an earlier batch created, or a rule left them out). */
  skipped: number;
  /** Of the skipped lines, those that matched a line an earlier batch created. */
  matched: number;
  /** Lines that failed: refused by the service, out of its reach, or invalid (counted in `invalid` too). */
  failed: number;
  /** Lines that could not be read or built into a request: nothing was sent for them. */
  invalid: number;
  /** Lines the run stopped before an answer (Ctrl-C, an outage): not failed, the next run sends them with the same key. */
  notSent: number;
  /** Of those, the lines the outage stop kept from being sent (the service could not be reached). */
  unreachable: number;
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

/** A summary of no lines. */
export function emptySummary(): RunSummary {
  return { created: 0, replayed: 0, alreadyDone: 0, queued: 0, skipped: 0, matched: 0, failed: 0, invalid: 0, notSent: 0, unreachable: 0, ignoredFields: 0, elapsedMs: 0, rate: 0, cancelled: false, exitCode: EXIT.OK, maxBuffered: 0 };
}

export async function runBulk(opts: RunOptions): Promise<RunSummary> {
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const gate = opts.gate ?? new PoolGate(opts.timing ?? realTiming);
  gate.configure(concurrency, opts.rate);
  const timing = gate.timing;
  const window = opts.window ?? concurrency * 4;
  const started = timing.now();
  const summary = emptySummary();
  const worker = new LineWorker(opts, gate);

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
        if (next.done) {
          // The input ends early when the run is cancelled while it waits on a read.
          summary.cancelled = opts.signal?.aborted === true;
          break;
        }
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
          finish(seq, spanned(worker.immediate(item), item.endLine));
          emitReady();
          continue;
        }
        summary.ignoredFields += item.ignored;
        inFlight++;
        const endLine = item.endLine;
        void worker.send(item).then((result) => onAnswer(seq)(spanned(result, endLine)));
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
  summary.rate = summary.elapsedMs > 0 ? (linesDone(summary) * 1000) / summary.elapsedMs : 0;
  // Stopped after the last line was started: its lines in flight were still cancelled (an outage's are not a Ctrl-C).
  if (summary.notSent > summary.unreachable) summary.cancelled = true;
  if (summary.cancelled) summary.exitCode = EXIT.CANCELLED;
  else if (summary.queued > 0 && summary.exitCode === EXIT.OK) summary.exitCode = EXIT.QUEUED;
  else if (summary.unreachable > 0 && summary.exitCode < EXIT.UNAVAILABLE) summary.exitCode = EXIT.UNAVAILABLE;
  return summary;
}

/** The result lines a run emitted: each counted once, under its outcome. */
export function linesDone(summary: RunSummary): number {
  return summary.created + summary.replayed + summary.alreadyDone + summary.queued + summary.skipped + summary.failed + summary.notSent;
}

/** A record spanning lines names its last line (right after its first). */
function spanned(result: ResultLine, endLine: number | undefined): ResultLine {
  if (endLine === undefined) return result;
  const { line, ...rest } = result;
  return { line, end_line: endLine, ...rest };
}

function tally(summary: RunSummary, result: ResultLine): void {
  if (result.outcome === 'already_done') summary.alreadyDone++;
  else if (result.outcome === 'replayed') summary.replayed++;
  else if (result.outcome === 'queued') summary.queued++;
  else if (result.outcome === 'skipped') {
    summary.skipped++;
    if (result.matched !== undefined) summary.matched++;
  } else if (result.ok) summary.created++;
  else if (result.outcome === 'not_sent') {
    summary.notSent++;
    if (result.error?.code === UNREACHABLE) summary.unreachable++;
  }
  else {
    summary.failed++;
    if (result.error?.code === INVALID_LINE) summary.invalid++;
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
