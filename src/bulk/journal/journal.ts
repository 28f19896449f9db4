import { closeSync, fdatasync, fdatasyncSync, ftruncateSync, mkdirSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../../config/atomic.js';
import { writeFileAtomicSync } from '../../config/whole-file.js';
import { openOwnFile } from '../../config/own-file.js';
import type { DoneKeys } from './done.js';
import { doneFileSha256 } from './done-file.js';
import { appliedFromOpen, applyRecord, readJournal } from './read.js';
import type { ReadResult } from './read.js';
import type { JournalLock } from './lock.js';
import { acquireLock, acquireLockWaiting } from './lock.js';
import { journalPath } from './paths.js';
import type { CompactRecord, InputRecord, JournalMeta, JournalRecord, LineState, RunRecord, SentRecord } from './records.js';
import { identityOf } from './records.js';

/**
 * The write-ahead journal of bulk runs and of the offline outbox: one append-only NDJSON file per
 * batch and target. A request's exact form (key, bytes) is written before its first send, its
 * outcome after the answer, both under the request's identity. kill -9 can only tear the last
 * line, which reading ignores. Version 1 (the released one) named lines by number; it is read.
 * Every file of it (journal, lock, done file, compaction) is opened so that a symbolic link is refused.
 */

export const JOURNAL_VERSION = 2;

export interface JournalIdentity {
  /** The data directory (see src/config/paths.ts). */
  dir: string;
  target: string;
  batch: string;
  input: string;
  kind: string;
  /** Where the requests go, as the user knows it (shown by `parcels batches`). */
  where?: string;
}

/**
 * A run that compacts when it is done (a bulk import) applies its request records to `done` as it
 * writes them, up to this many, so that its compaction needs no read back of the journal: reading it
 * back at the end was ~60 ms of a 4,000-line run's exit, most of it code that had not run yet in
 * the process (BENCHMARKS.md). Past that many it stops, and the compaction reads back as before: a
 * million-line import holds no more than this many confirmations beyond what it opened with.
 */
export const RECORDS_APPLIED = 50_000;

export interface JournalOptions {
  /** fdatasync after this many records (default 256, in the background); and always on close (waited for). */
  syncEvery?: number;
  now?: () => number;
  /** Wait up to this long (ms) for another process's lock instead of failing at once (default 0). */
  lockWaitMs?: number;
  /** The run compacts when done (`compactDone`): its records are applied to `done` as written, up to `recordsApplied` (default RECORDS_APPLIED). */
  compactsWhenDone?: boolean;
  recordsApplied?: number;
}

export class Journal {
  /** Requests sent (by this run or an earlier one) without a confirmation: uncertain or rejected. */
  private readonly unconfirmed: Set<string>;
  /** The file is not (or no longer) in its compact form: it was read so, or this run wrote a record. */
  private changed: boolean;
  private pendingText = '';
  private unsynced = 0;
  /** A background fdatasync is under way: the next batch's waits for the one after it. */
  private syncing = false;
  private closed = false;
  /** The input and run records a compaction keeps. */
  private latestInput: InputRecord | undefined;
  private latestRun: RunRecord | undefined;
  /** A line was recorded: a journal this open created and nothing was recorded in is removed on close. */
  private recorded = false;
  /** Confirmations this run recorded: with `done`, what the compaction's table is sized for. */
  private confirmed = 0;
  /**
   * The journal as reading it back would give it, kept as records are written (`compactsWhenDone`):
   * its `done` is this journal's. Undefined past the bound, once the file was rewritten, or for a
   * journal of version 1 (it names lines by number).
   */
  private applied: ReadResult | undefined;
  private appliedCount = 0;

  private constructor(
    readonly path: string,
    readonly meta: JournalMeta,
    /** Requests earlier runs sent without a confirmation, by identity. Not updated by this run's writes. */
    readonly previous: ReadonlyMap<string, LineState>,
    /**
     * Requests earlier runs confirmed; with `compactsWhenDone`, this run's confirmations too as it
     * records them (a run asks only about keys it has not sent yet: each line's key is its own).
     */
    readonly done: DoneKeys,
    /** The done file `done` holds, with the records after it applied (the journal was compact when opened, or this run compacted it from `done`). */
    private doneFile: string | undefined,
    /** The input the last run read, and how it ended. */
    readonly lastInput: InputRecord | undefined,
    readonly lastRun: RunRecord | undefined,
    private fd: number,
    private readonly lock: JournalLock,
    private readonly syncEvery: number,
    private readonly recordsApplied: number,
    compact: boolean,
    /** This open created the file (it had no meta). */
    private readonly created: boolean,
  ) {
    this.changed = !compact;
    this.unconfirmed = new Set(previous.keys());
    this.latestInput = lastInput;
    this.latestRun = lastRun;
  }

  /** Locks the batch (JournalLockedError when another run holds it), reads what earlier runs left and opens for appending. */
  static async open(id: JournalIdentity, opts: JournalOptions = {}): Promise<Journal> {
    const path = journalPath(id.dir, id.target, id.batch);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const lockPath = `${path}.lock`;
    const lock = opts.lockWaitMs ? await acquireLockWaiting(lockPath, { waitMs: opts.lockWaitMs }) : acquireLock(lockPath);
    try {
      const read = await readJournal(path);
      const fd = openOwnFile(path, 'append');
      if (read.torn) ftruncateSync(fd, read.goodBytes);
      const journal = new Journal(
        path,
        read.meta ?? { t: 'meta', v: JOURNAL_VERSION, batch: id.batch, target: id.target, input: id.input, kind: id.kind, created: (opts.now ?? Date.now)(), ...(id.where === undefined ? {} : { where: id.where }) },
        read.lines,
        read.done,
        read.doneFile,
        read.lastInput,
        read.lastRun,
        fd,
        lock,
        opts.syncEvery ?? 256,
        opts.recordsApplied ?? RECORDS_APPLIED,
        read.compact,
        read.meta === undefined,
      );
      if (read.meta === undefined) journal.writeNow(journal.meta);
      if (opts.compactsWhenDone === true && journal.meta.v === JOURNAL_VERSION) journal.applied = appliedFromOpen(read);
      return journal;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Buffered: call `flush` (or `sync`) after it and before the request's first send. */
  recordSent(record: Omit<SentRecord, 't'>): void {
    this.recorded = true;
    const sent: SentRecord = { t: 'sent', ...record };
    this.unconfirmed.add(identityOf(sent));
    this.buffer(sent);
  }

  /** `identity`: the request's (its key, unless its sent record says otherwise); `line`: the line it has now; `pair`: that line's pairing tag. */
  recordDone(identity: string, line: number, status: number, id?: string, pair?: number): void {
    this.recorded = true;
    this.confirmed++;
    this.unconfirmed.delete(identity);
    this.buffer({ t: 'done', line, k: identity, status, ...(id === undefined ? {} : { id }), ...(pair === undefined ? {} : { p: pair }) });
  }

  recordRejected(identity: string, line: number, status: number, code: string): void {
    this.recorded = true;
    this.unconfirmed.add(identity);
    this.buffer({ t: 'rejected', line, k: identity, status, code });
  }

  /** The request went to the outbox instead of being sent (it stays unconfirmed until a flush records its outcome). */
  recordQueued(identity: string, line: number): void {
    this.recorded = true;
    this.unconfirmed.add(identity);
    this.buffer({ t: 'queued', line, k: identity });
  }

  /** What this run reads (before it sends anything) or how it ended; written at once. */
  recordRunState(record: InputRecord | RunRecord): void {
    if (record.t === 'input') this.latestInput = record;
    else this.latestRun = record;
    // Not a change to any request: a compact journal stays compact.
    this.pendingText += `${JSON.stringify(record)}\n`;
    this.flush();
  }

  /**
   * Replaces the journal with its compact form when every line in it is confirmed. Its state comes
   * from the records applied as they were written (`compactsWhenDone`), or else the journal is read
   * back (a million read from a done file when it opened are not read twice: the records after it
   * are applied to `done`, which this run no longer reads). Then the done file is written
   * (atomically: a temporary file, fsync'd, renamed), then the journal itself as its meta
   * and one record naming that file (atomically too), then the done file it replaces is removed.
   * kill -9 at any point leaves a readable journal: the full one (and a done file nobody names,
   * removed by the next compaction), or the compact one. Does nothing while a line is uncertain or
   * rejected, or when the journal is already compact and this run wrote nothing.
   */
  async compactDone(): Promise<void> {
    // A line still uncertain or rejected: not finished, and not worth reading the journal back for.
    if (!this.changed || this.unconfirmed.size > 0) return;
    this.sync();
    const state =
      this.applied ??
      await readJournal(this.path, this.doneFile === undefined ? { expected: this.done.size + this.confirmed } : { known: { file: this.doneFile, done: this.done } });
    if (state.lines.size > 0 || state.done.size === 0) return;
    const name = basename(this.path);
    const file = `${name}.${randomBytes(6).toString('hex')}.done`;
    const dir = dirname(this.path);
    const chunks = state.done.toChunks();
    await writeFileAtomic(join(dir, file), chunks);
    const compact: CompactRecord = { t: 'compact', file, count: state.done.size, sha256: doneFileSha256(chunks) };
    const kept = [this.meta, this.latestInput, this.latestRun, compact].filter((record) => record !== undefined);
    await writeFileAtomic(this.path, kept.map((record) => `${JSON.stringify(record)}\n`).join(''));
    closeSync(this.fd);
    this.fd = openOwnFile(this.path, 'append');
    this.changed = false;
    if (state.done === this.done) this.doneFile = file;
    for (const other of readdirSync(dir)) {
      if (other !== file && other.startsWith(`${name}.`) && other.endsWith('.done')) rmSync(join(dir, other), { force: true });
    }
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
    if (records.length > 0) this.recorded = true;
    this.flush();
    writeFileAtomicSync(this.path, [this.meta, ...records].map((record) => `${JSON.stringify(record)}\n`).join(''));
    this.applied = undefined;
    closeSync(this.fd);
    this.fd = openOwnFile(this.path, 'append');
    this.unsynced = 0;
  }

  /**
   * A run that ended before recording a line (a crash or refusal before sending, an empty input)
   * leaves no journal it created: `parcels batches` would list a batch that never ran.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.sync();
      closeSync(this.fd);
      if (this.created && !this.recorded) rmSync(this.path, { force: true });
    } finally {
      this.lock.release();
    }
  }

  private buffer(record: JournalRecord): void {
    this.changed = true;
    if (this.applied !== undefined && record.t !== 'meta') {
      // Past the bound the compaction reads back: from whatever was applied, reading gives the same.
      if (++this.appliedCount > this.recordsApplied) this.applied = undefined;
      else applyRecord(this.applied, record, this.path);
    }
    this.pendingText += `${JSON.stringify(record)}\n`;
    this.unsynced++;
    if (this.pendingText.length >= 64 * 1024) this.flush();
    if (this.unsynced >= this.syncEvery) this.syncInBackground();
  }

  private writeNow(record: JournalRecord): void {
    this.buffer(record);
    this.flush();
  }

  /**
   * A batch's fdatasync off the main thread, so the run does not stall on the disk. Nothing waits
   * on it: kill -9 loses nothing written (the kernel has it), and close() syncs on the spot, so
   * every record is on disk when the run ends. A failure is left for close() to meet again.
   */
  private syncInBackground(): void {
    this.flush();
    if (this.syncing) return;
    this.syncing = true;
    this.unsynced = 0;
    fdatasync(this.fd, () => {
      this.syncing = false;
    });
  }

  /** Writes what is buffered (not fsync'd: that happens every `syncEvery` records and on close). */
  flush(): void {
    if (this.pendingText === '') return;
    writeSync(this.fd, this.pendingText);
    this.pendingText = '';
  }
}
