import { existsSync } from 'node:fs';
import { couldNotTake } from '../api/core/policy.js';
import type { PoolGate } from '../api/core/gate.js';
import { GaveUp } from '../api/core/retry.js';
import type { Timing } from '../api/core/sleep.js';
import { JournalLockedError } from './journal/lock.js';
import { Journal } from './journal/journal.js';
import { journalPath } from './journal/paths.js';
import type { JournalRecord, LineState, RejectedRecord, SentRecord } from './journal/records.js';
import type { OutboxPlace } from './outbox.js';
import { OUTBOX_LOCK_WAIT_MS, openOutbox, waitingRecords } from './outbox.js';
import { journalRecorder } from './recorder.js';
import type { RunSummary } from './runner.js';
import { runBulk } from './runner.js';
import type { ResultLine, Send, WorkItem } from './types.js';

/**
 * Delivering the offline outbox (its store: outbox.ts): what waits is sent one at a time in capture
 * order with its keys and bytes; a request the service refuses (4xx) is moved aside, never retried
 * again, and each outcome of a line a bulk run queued is recorded in that run's batch too.
 */

export interface FlushOptions {
  send: Send;
  emit(result: ResultLine): void | Promise<void>;
  retries?: number;
  signal?: AbortSignal;
  abandon?: AbortSignal;
  /** The sender's pool gate (see RunOptions.gate). */
  gate?: PoolGate;
  timing?: Timing;
  random?: () => number;
  /** How long to wait for another command holding the outbox (default OUTBOX_LOCK_WAIT_MS). */
  lockWaitMs?: number;
}

export interface FlushSummary extends RunSummary {
  /** Still waiting after the flush (failed again, or not tried); rejected ones are not counted. */
  left: number;
  /** Not tried: the flush stopped at the first entry the service still could not take. */
  notTried: number;
}

/**
 * Sends what waits, one at a time in capture order, with the captured keys and bytes. The first
 * entry that still cannot be delivered after its retries (network, 5xx) ends the flush: the ones
 * after it are not tried, they wait for the next flush in their order. The journal is then
 * compacted to what still waits and what was moved aside.
 */
export async function flushOutbox(place: OutboxPlace, opts: FlushOptions): Promise<FlushSummary> {
  const journal = await openOutbox(place, opts.lockWaitMs ?? OUTBOX_LOCK_WAIT_MS);
  let batches = new Map<string, Journal>();
  try {
    const waiting = waitingRecords(journal.previous);
    batches = await openBatches(place, waiting);
    /** Where a queued line came from, by capture number. */
    const origins = new Map(waiting.flatMap((record) => (record.from === undefined ? [] : [[record.line, record.from] as const])));
    /** By Idempotency-Key, an outbox entry's identity. */
    const delivered = new Set<string>();
    const rejected = new Map<string, RejectedRecord>();
    const recorder = journalRecorder(journal);
    /** The last answer was a failure worth retrying later: when its entry ends so, nothing more is sent. */
    let unreachable = false;
    let tried = 0;
    const send: Send = async (request, run) => {
      try {
        const response = await opts.send(request, run);
        unreachable = false;
        return response;
      } catch (error) {
        unreachable = couldNotTake(error instanceof GaveUp ? error.failure : error);
        throw error;
      }
    };
    async function* items(): AsyncGenerator<WorkItem> {
      for (const record of waiting) {
        // One at a time: the previous entry has its outcome before the next is asked for.
        if (unreachable) return;
        tried++;
        yield toItem(record);
      }
    }
    const summary = await runBulk({
      items: items(),
      send,
      emit: opts.emit,
      recorder: {
        sent: recorder.sent,
        flush: recorder.flush,
        done(item, status, entryId) {
          delivered.add(item.request.idempotencyKey);
          recorder.done(item, status, entryId);
          const from = origins.get(item.line);
          if (from !== undefined) batches.get(from.batch)?.recordDone(from.k, from.line, status, entryId);
        },
        rejected(item, status, code) {
          const key = item.request.idempotencyKey;
          rejected.set(key, { t: 'rejected', line: item.line, k: key, status, code });
          recorder.rejected(item, status, code);
          const from = origins.get(item.line);
          if (from !== undefined) batches.get(from.batch)?.recordRejected(from.k, from.line, status, code);
        },
      },
      concurrency: 1,
      retries: opts.retries,
      signal: opts.signal,
      abandon: opts.abandon,
      gate: opts.gate,
      timing: opts.timing,
      random: opts.random,
    });
    journal.compact(remaining(journal.previous, delivered, rejected));
    return { ...summary, left: waiting.length - delivered.size - rejected.size, notTried: waiting.length - tried };
  } finally {
    for (const batch of batches.values()) batch.close();
    journal.close();
  }
}

/** What the compacted outbox keeps: entries still waiting and entries moved aside, in capture order. */
function remaining(previous: ReadonlyMap<string, LineState>, delivered: ReadonlySet<string>, rejected: ReadonlyMap<string, RejectedRecord>): JournalRecord[] {
  const records: JournalRecord[] = [];
  const bySeq = [...previous].sort(([, a], [, b]) => (a.sent?.line ?? 0) - (b.sent?.line ?? 0));
  for (const [key, state] of bySeq) {
    if (state.sent === undefined || delivered.has(key)) continue;
    records.push(state.sent);
    const refusal = state.rejected ?? rejected.get(key);
    // Kept under the key: a journal of version 1 named the entry by its number alone.
    if (refusal !== undefined) records.push({ ...refusal, k: key });
  }
  return records;
}

/**
 * The batch journals whose queued lines a flush delivers, opened before it sends and closed after:
 * each outcome is recorded in its batch too, so the batch's next run counts it done. A batch held
 * by a run (or gone, pruned) is left alone: a resend there has the same key, the service replays it.
 */
async function openBatches(place: OutboxPlace, waiting: readonly SentRecord[]): Promise<Map<string, Journal>> {
  const batches = new Map<string, Journal>();
  for (const record of waiting) {
    const batch = record.from?.batch;
    if (batch === undefined || batches.has(batch) || !existsSync(journalPath(place.dir, place.target, batch))) continue;
    try {
      batches.set(batch, await Journal.open({ dir: place.dir, target: place.target, batch, input: '-', kind: 'outbox' }));
    } catch (error) {
      if (error instanceof JournalLockedError) continue;
      for (const opened of batches.values()) opened.close();
      throw error;
    }
  }
  return batches;
}

function toItem(record: SentRecord): WorkItem {
  return {
    kind: 'send',
    line: record.line,
    parcel: record.parcel,
    ignored: 0,
    journaled: true,
    request: { method: 'POST', path: record.path, body: Buffer.from(record.body, 'utf8'), idempotencyKey: record.key },
  };
}
