import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fdatasyncSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DoneLines } from './journal-done.js';
import type { JournalLock } from './journal-lock.js';
import { acquireLock, acquireLockWaiting } from './journal-lock.js';

/**
 * The write-ahead journal of bulk runs and of the offline outbox: one append-only NDJSON file per
 * batch and target. A line's exact request (key, bytes) is written before its first send, its
 * outcome after the answer. kill -9 can only tear the last line, which reading ignores.
 */

export const JOURNAL_VERSION = 1;

export interface JournalMeta {
  t: 'meta';
  v: number;
  batch: string;
  /** Opaque: who the requests go to (profile + base URL, or the sandbox database). */
  target: string;
  /** What was read: a file path, or "-" for standard input. */
  input: string;
  /** create, events, attempts, or outbox. */
  kind: string;
  created: number;
}

export interface SentRecord {
  t: 'sent';
  line: number;
  key: string;
  method: string;
  path: string;
  /** The exact body bytes (JSON text, so UTF-8). */
  body: string;
  /** When the request was written here (ms since the epoch); for the outbox, the capture time. */
  at: number;
  /** Outbox only: the command that captured it and the parcel it is about. */
  command?: string;
  parcel?: string;
}

export interface DoneRecord {
  t: 'done';
  line: number;
  status: number;
  id?: string;
}

/** The service answered with a final refusal (a 4xx other than 429): not applied, not retried by the outbox. */
export interface RejectedRecord {
  t: 'rejected';
  line: number;
  status: number;
  code: string;
}

export type JournalRecord = JournalMeta | SentRecord | DoneRecord | RejectedRecord;

/** What earlier runs left for a line not confirmed: `sent` alone is uncertain (maybe applied, maybe not). */
export interface LineState {
  sent?: SentRecord;
  rejected?: RejectedRecord;
}

export interface JournalIdentity {
  /** The data directory (see src/config/paths.ts). */
  dir: string;
  target: string;
  batch: string;
  input: string;
  kind: string;
}

export class CorruptJournalError extends Error {
  override readonly name = 'CorruptJournalError';
}

const FILE_SUFFIX = '.ndjson';

export function journalsRoot(dir: string): string {
  return join(dir, 'journals');
}

/** The file of a batch for a target: journals/<hash of target>/<batch>.ndjson. */
export function journalPath(dir: string, target: string, batch: string): string {
  const targetDir = createHash('sha256').update(target).digest('hex').slice(0, 16);
  return join(journalsRoot(dir), targetDir, `${encodeURIComponent(batch).replace(/^\./, '%2E')}${FILE_SUFFIX}`);
}

export interface JournalOptions {
  /** fdatasync after this many records (default 256); and always on close. */
  syncEvery?: number;
  now?: () => number;
  /** Wait up to this long (ms) for another process's lock instead of failing at once (default 0). */
  lockWaitMs?: number;
}

export class Journal {
  private pendingText = '';
  private unsynced = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    readonly meta: JournalMeta,
    /** Lines earlier runs sent without a confirmation, by line number. Not updated by this run's writes. */
    readonly previous: ReadonlyMap<number, LineState>,
    /** Lines earlier runs confirmed. */
    readonly done: DoneLines,
    private fd: number,
    private readonly lock: JournalLock,
    private readonly syncEvery: number,
  ) {}

  /** Locks the batch (JournalLockedError when another run holds it), reads what earlier runs left and opens for appending. */
  static async open(id: JournalIdentity, opts: JournalOptions = {}): Promise<Journal> {
    const path = journalPath(id.dir, id.target, id.batch);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const lockPath = `${path}.lock`;
    const lock = opts.lockWaitMs ? await acquireLockWaiting(lockPath, { waitMs: opts.lockWaitMs }) : acquireLock(lockPath);
    try {
      const read = await readJournal(path);
      const fd = openSync(path, 'a', 0o600);
      if (read.torn) ftruncateSync(fd, read.goodBytes);
      const journal = new Journal(
        path,
        read.meta ?? { t: 'meta', v: JOURNAL_VERSION, batch: id.batch, target: id.target, input: id.input, kind: id.kind, created: (opts.now ?? Date.now)() },
        read.lines,
        read.done,
        fd,
        lock,
        opts.syncEvery ?? 256,
      );
      if (read.meta === undefined) journal.writeNow(journal.meta);
      return journal;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Buffered: call `flush` (or `sync`) after it and before the request's first send. */
  recordSent(record: Omit<SentRecord, 't'>): void {
    this.buffer({ t: 'sent', ...record });
  }

  recordDone(line: number, status: number, id?: string): void {
    this.buffer(id === undefined ? { t: 'done', line, status } : { t: 'done', line, status, id });
  }

  recordRejected(line: number, status: number, code: string): void {
    this.buffer({ t: 'rejected', line, status, code });
  }

  /** Writes buffered outcomes and fsyncs. */
  sync(): void {
    this.flush();
    fdatasyncSync(this.fd);
    this.unsynced = 0;
  }

  /**
   * Replaces the file with its meta and `records` (what is still worth keeping), atomically: a
   * temporary file, fsync'd, renamed over it. Later records go to the new file. The lock stays held.
   */
  compact(records: readonly JournalRecord[]): void {
    this.flush();
    const temporary = `${this.path}.compact`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, [this.meta, ...records].map((record) => `${JSON.stringify(record)}\n`).join(''));
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, 'a', 0o600);
    this.unsynced = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.sync();
      closeSync(this.fd);
    } finally {
      this.lock.release();
    }
  }

  private buffer(record: JournalRecord): void {
    this.pendingText += `${JSON.stringify(record)}\n`;
    this.unsynced++;
    if (this.pendingText.length >= 64 * 1024) this.flush();
    if (this.unsynced >= this.syncEvery) this.sync();
  }

  private writeNow(record: JournalRecord): void {
    this.buffer(record);
    this.flush();
  }

  /** Writes what is buffered (not fsync'd: that happens every `syncEvery` records and on close). */
  flush(): void {
    if (this.pendingText === '') return;
    writeSync(this.fd, this.pendingText);
    this.pendingText = '';
  }
}

interface ReadResult {
  meta: JournalMeta | undefined;
  lines: Map<number, LineState>;
  done: DoneLines;
  /** Bytes up to the end of the last complete line. */
  goodBytes: number;
  /** The file ends in a partial line (a write cut short). */
  torn: boolean;
}

/** Reads a journal; a missing file is an empty journal; a partial last line is ignored. */
export async function readJournal(path: string): Promise<ReadResult> {
  const result: ReadResult = { meta: undefined, lines: new Map(), done: new DoneLines(), goodBytes: 0, torn: false };
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  // Split by hand rather than with readline, whose async iterator queues lines faster than they
  // are used: a million-line journal would sit in memory at once.
  let lineNo = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    let data = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    let newline: number;
    while ((newline = data.indexOf(0x0a)) !== -1) {
      lineNo++;
      let record: JournalRecord;
      try {
        record = JSON.parse(data.toString('utf8', 0, newline)) as JournalRecord;
      } catch {
        throw new CorruptJournalError(`${path}:${lineNo}: not a journal record`);
      }
      result.goodBytes += newline + 1;
      apply(result, record);
      data = data.subarray(newline + 1);
    }
    rest = Buffer.from(data);
  }
  // What follows the last newline is a write cut short.
  if (!result.torn && result.goodBytes < size) result.torn = true;
  return result;
}

function apply(result: ReadResult, record: JournalRecord): void {
  if (record.t === 'meta') {
    result.meta = record;
    return;
  }
  if (record.t === 'done') {
    const state = result.lines.get(record.line);
    result.done.set(record.line, state?.sent?.key ?? '', record.id);
    result.lines.delete(record.line);
    return;
  }
  const state = result.lines.get(record.line) ?? {};
  if (record.t === 'sent') {
    // A line sent anew (its bytes changed under the same batch id) starts over.
    result.done.delete(record.line);
    state.sent = record;
    delete state.rejected;
  } else state.rejected = record;
  result.lines.set(record.line, state);
}
