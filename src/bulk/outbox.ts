import type { JournalRecord, LineState, RejectedRecord, SentRecord } from './journal/records.js';
import { ApiError, ConflictError, NetworkError } from '../errors.js';
import { JournalLockedError } from './journal/lock.js';
import { Journal, journalPath } from './journal/journal.js';
import { readJournal } from './journal/read.js';
import type { PoolGate } from '../api/core/gate.js';
import type { Timing } from '../api/core/sleep.js';
import { journalRecorder } from './import.js';
import { OUTBOX_BATCH } from './outbox-batch.js';
import type { RunSummary } from './runner.js';
import { runBulk } from './runner.js';
import type { ResultLine, Send, SendRequest, WorkItem } from './types.js';

/**
 * The offline outbox: requests captured while the service could not be reached, kept in the same
 * journal as bulk runs (batch "outbox" of the profile + base URL), sent later in capture order with
 * their keys and bytes. A request the service refuses (4xx) is moved aside, never retried again.
 */

export { OUTBOX_BATCH };

export interface OutboxPlace {
  /** The data directory. */
  dir: string;
  /** The profile and its base URL: an outbox is flushed only to the host it was captured for. */
  target: string;
}

export interface Capture {
  /** The command that captured it, e.g. "events add". */
  command: string;
  /** The parcel it is about (events, attempts). */
  parcel?: string;
  request: SendRequest;
}

export interface OutboxEntry {
  /** Capture sequence number. */
  seq: number;
  command: string;
  parcel: string | undefined;
  /** Capture time, ms since the epoch. */
  capturedAt: number;
  state: 'waiting' | 'rejected';
  /** For a rejected entry: the service's answer. */
  status?: number;
  code?: string;
  /** The captured body (parsed), so two entries can be told apart: courier and postcode, a status, an outcome. */
  body: Record<string, unknown>;
}

/** How long a capture or a flush waits for another command that holds the outbox (they hold it briefly). */
export const OUTBOX_LOCK_WAIT_MS = 10_000;

async function open(place: OutboxPlace, lockWaitMs: number): Promise<Journal> {
  try {
    return await Journal.open({ dir: place.dir, target: place.target, batch: OUTBOX_BATCH, input: '-', kind: 'outbox' }, { lockWaitMs });
  } catch (error) {
    if (!(error instanceof JournalLockedError)) throw error;
    throw new ConflictError(
      `the outbox is still in use by another parcels process (pid ${error.pid}) after ${lockWaitMs / 1000} s (outbox ${error.lockPath})`,
      'run the command again once that one has finished (a long `parcels outbox flush` holds the outbox while it sends)',
    );
  }
}

const decoder = new TextDecoder();

/** Writes the request to the outbox (fsync'd) and returns how many now wait. */
export async function captureRequest(place: OutboxPlace, capture: Capture, nowMs: number, lockWaitMs = OUTBOX_LOCK_WAIT_MS): Promise<{ waiting: number }> {
  const journal = await open(place, lockWaitMs);
  try {
    let seq = journal.done.maxLine + 1;
    for (const state of journal.previous.values()) seq = Math.max(seq, (state.sent?.line ?? 0) + 1);
    journal.recordSent({
      line: seq,
      key: capture.request.idempotencyKey,
      method: capture.request.method,
      path: capture.request.path,
      body: decoder.decode(capture.request.body),
      at: nowMs,
      command: capture.command,
      ...(capture.parcel === undefined ? {} : { parcel: capture.parcel }),
    });
    journal.sync();
    return { waiting: waitingRecords(journal.previous).length + 1 };
  } finally {
    journal.close();
  }
}

/** What waits and what was moved aside, in capture order (reads without locking). */
export async function listOutbox(place: OutboxPlace): Promise<OutboxEntry[]> {
  const read = await readJournal(journalPath(place.dir, place.target, OUTBOX_BATCH));
  const entries: OutboxEntry[] = [];
  for (const state of read.lines.values()) {
    if (state.sent === undefined) continue;
    const base = { seq: state.sent.line, command: state.sent.command ?? '', parcel: state.sent.parcel, capturedAt: state.sent.at, body: parsedBody(state.sent.body) };
    entries.push(state.rejected ? { ...base, state: 'rejected', status: state.rejected.status, code: state.rejected.code } : { ...base, state: 'waiting' });
  }
  return entries.sort((a, b) => a.seq - b.seq);
}

function parsedBody(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Which entries `outbox drop` removes: these capture numbers, or every entry the service rejected. */
export type DropSelection = { seqs: readonly number[] } | { rejected: true };

/**
 * Removes entries from the outbox for good (under its lock) and returns them; the rest keep their
 * place and order. A number that is not in the outbox is reported, nothing removed.
 */
export async function dropFromOutbox(place: OutboxPlace, selection: DropSelection, lockWaitMs = OUTBOX_LOCK_WAIT_MS): Promise<{ dropped: OutboxEntry[]; unknown: number[] }> {
  const journal = await open(place, lockWaitMs);
  try {
    const entries = await listOutbox(place);
    const chosen = 'seqs' in selection ? entries.filter((e) => selection.seqs.includes(e.seq)) : entries.filter((e) => e.state === 'rejected');
    const unknown = 'seqs' in selection ? selection.seqs.filter((seq) => !entries.some((e) => e.seq === seq)) : [];
    if (unknown.length > 0 || chosen.length === 0) return { dropped: [], unknown };
    const gone = new Set(chosen.map((e) => e.seq));
    const kept: JournalRecord[] = [];
    for (const [key, state] of [...journal.previous].sort(([, a], [, b]) => (a.sent?.line ?? 0) - (b.sent?.line ?? 0))) {
      if (state.sent === undefined || gone.has(state.sent.line)) continue;
      kept.push(state.sent);
      // Kept under the key: a journal of version 1 named the entry by its number alone.
      if (state.rejected !== undefined) kept.push({ ...state.rejected, k: key });
    }
    journal.compact(kept);
    return { dropped: chosen, unknown };
  } finally {
    journal.close();
  }
}

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
  const journal = await open(place, opts.lockWaitMs ?? OUTBOX_LOCK_WAIT_MS);
  try {
    const waiting = waitingRecords(journal.previous);
    /** By Idempotency-Key, an outbox entry's identity. */
    const delivered = new Set<string>();
    const rejected = new Map<string, RejectedRecord>();
    const recorder = journalRecorder(journal);
    /** The last answer was a failure worth retrying later: when its entry ends so, nothing more is sent. */
    let unreachable = false;
    let tried = 0;
    const send: Send = async (request, signal) => {
      try {
        const response = await opts.send(request, signal);
        unreachable = false;
        return response;
      } catch (error) {
        unreachable = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
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
        },
        rejected(item, status, code) {
          const key = item.request.idempotencyKey;
          rejected.set(key, { t: 'rejected', line: item.line, k: key, status, code });
          recorder.rejected(item, status, code);
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

function waitingRecords(lines: ReadonlyMap<string, LineState>): SentRecord[] {
  const waiting: SentRecord[] = [];
  for (const state of lines.values()) {
    if (state.sent !== undefined && state.rejected === undefined) waiting.push(state.sent);
  }
  return waiting.sort((a, b) => a.line - b.line);
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
