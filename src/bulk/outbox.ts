import type { JournalRecord, LineState, SentRecord } from './journal/records.js';
import { ConflictError } from '../errors.js';
import { JournalLockedError } from './journal/lock.js';
import { Journal } from './journal/journal.js';
import { journalPath } from './journal/paths.js';
import { readJournal } from './journal/read.js';
import { OUTBOX_BATCH } from './outbox-batch.js';
import type { LineQueue, SendItem, SendRequest } from './types.js';

/**
 * The offline outbox's store: requests captured while the service could not be reached (one by
 * one, or a bulk run's lines with `--queue`), kept in the same journal as bulk runs (batch "outbox"
 * of the profile + base URL), listed and dropped here; sent later in capture order with their keys
 * and bytes by outbox-flush.ts.
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
  /** The route it is sent to: what it is, read with its body (outbox-describe.ts). */
  method: string;
  path: string;
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

/** Opens the outbox under its lock, waiting up to `lockWaitMs` for another command that holds it. */
export async function openOutbox(place: OutboxPlace, lockWaitMs: number): Promise<Journal> {
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
  const journal = await openOutbox(place, lockWaitMs);
  try {
    journal.recordSent({
      line: nextSeq(journal),
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

/** The next capture number of an open outbox. */
function nextSeq(journal: Journal): number {
  let seq = journal.done.maxLine + 1;
  for (const state of journal.previous.values()) seq = Math.max(seq, (state.sent?.line ?? 0) + 1);
  return seq;
}

/**
 * The lines of a bulk run that the outage kept from being sent (`--queue --from`), captured with
 * their keys and bytes and the batch line they came from. The outbox is opened at the first line
 * and held to the end of the run; `sync` makes the captures durable (before the batch's journal
 * marks the lines queued).
 */
export class OutboxWriter implements LineQueue {
  private opening: Promise<Journal> | undefined;
  private journal: Journal | undefined;
  private seq = 0;
  private unsynced = false;
  private waitingBefore = 0;
  /** Lines captured by this run. */
  added = 0;

  constructor(
    private readonly place: OutboxPlace,
    /** The command that captures, e.g. "events add". */
    private readonly command: string,
    private readonly nowMs: () => number,
    private readonly lockWaitMs = OUTBOX_LOCK_WAIT_MS,
  ) {}

  async add(item: SendItem, batch: string): Promise<void> {
    const journal = await (this.opening ??= this.open());
    const request = item.request;
    journal.recordSent({
      line: this.seq++,
      key: request.idempotencyKey,
      method: request.method,
      path: request.path,
      body: decoder.decode(request.body),
      at: this.nowMs(),
      command: this.command,
      ...(item.parcel === undefined ? {} : { parcel: item.parcel }),
      from: { batch, line: item.line, k: item.identity ?? request.idempotencyKey },
    });
    this.unsynced = true;
    this.added++;
  }

  sync(): void {
    if (!this.unsynced) return;
    this.journal?.sync();
    this.unsynced = false;
  }

  /** How many wait in the outbox now. */
  get waiting(): number {
    return this.waitingBefore + this.added;
  }

  close(): void {
    this.journal?.close();
  }

  private async open(): Promise<Journal> {
    const journal = await openOutbox(this.place, this.lockWaitMs);
    this.journal = journal;
    this.seq = nextSeq(journal);
    this.waitingBefore = waitingRecords(journal.previous).length;
    return journal;
  }
}

/** What waits and what was moved aside, in capture order (reads without locking). */
export async function listOutbox(place: OutboxPlace): Promise<OutboxEntry[]> {
  const read = await readJournal(journalPath(place.dir, place.target, OUTBOX_BATCH));
  const entries: OutboxEntry[] = [];
  for (const state of read.lines.values()) {
    if (state.sent === undefined) continue;
    const base = { seq: state.sent.line, command: state.sent.command ?? '', parcel: state.sent.parcel, method: state.sent.method, path: state.sent.path, capturedAt: state.sent.at, body: parsedBody(state.sent.body) };
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
  const journal = await openOutbox(place, lockWaitMs);
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

/** The entries that wait to be sent, in capture order. */
export function waitingRecords(lines: ReadonlyMap<string, LineState>): SentRecord[] {
  const waiting: SentRecord[] = [];
  for (const state of lines.values()) {
    if (state.sent !== undefined && state.rejected === undefined) waiting.push(state.sent);
  }
  return waiting.sort((a, b) => a.line - b.line);
}
