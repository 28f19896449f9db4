import { closeSync, createReadStream, fstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openOwnFile } from '../../config/own-file.js';
import { UsageError } from '../../errors.js';
import { hintCommand } from '../../hint/hint.js';
import type { HintPart } from '../../hint/hint.js';
import { DoneKeys } from './done.js';
import type { InputRecord, JournalMeta, JournalRecord, LineState, RunRecord } from './records.js';
import { identityOf, isJournalRecord } from './records.js';

/** Reading a journal (./journal.ts): what earlier runs left, record by record, or from a compaction's done file. */

/**
 * What to do with a journal that cannot be read: the same words from a run that meets it, from
 * `parcels batches` and from `parcels doctor`. A re-run after it is moved aside sends every line
 * again with the key it had (keys come from the batch and the line's request, not from the
 * journal), so the service answers with what it made instead of making it again, and the new
 * journal and done file are rebuilt from those answers.
 */
export function rebuildAdvice(path: string): string {
  return `move ${path} (and the .done files beside it named after it) aside, then run the same import again: each line is resent with the key it had, so the service answers with what it created rather than creating it twice, and the journal is rebuilt`;
}

/** A run's advice: rebuild it, and where to see every journal that cannot be read. */
function runAdvice(path: string): HintPart[] {
  return [`${rebuildAdvice(path)}; `, hintCommand(['doctor']), ' names every journal it cannot read'];
}

/** A journal (or its done file) is damaged: exit 2, naming the file and how to rebuild it. */
export class CorruptJournalError extends UsageError {
  constructor(
    readonly path: string,
    /** What is wrong, after the file's name (`:12: not a journal record`). */
    problem: string,
    advice: HintPart[] = runAdvice(path),
  ) {
    super(`${path}${problem}`, undefined, undefined, undefined, advice);
  }
}

export interface ReadResult {
  meta: JournalMeta | undefined;
  /** Requests sent without a confirmation, by identity. */
  lines: Map<string, LineState>;
  /** The journal is in its compact form: a compact record, and after it no request's record (input and run records may follow). */
  compact: boolean;
  done: DoneKeys;
  /** The done file named by the journal's compact record. */
  doneFile: string | undefined;
  lastInput: InputRecord | undefined;
  lastRun: RunRecord | undefined;
  /** Bytes up to the end of the last complete line. */
  goodBytes: number;
  /** The file ends in a partial line (a write cut short). */
  torn: boolean;
}

/** What a reader knows already, to spare memory when it reads a journal again. */
export interface ReadHints {
  /** The table its done file `file` was read into, with every record after it applied: used (and changed) instead of reading the file again. */
  known?: { file: string; done: DoneKeys };
  /** About how many requests are confirmed: the table is sized for them up front rather than grown. */
  expected?: number;
}

/**
 * Reads a journal; a missing file is an empty journal; a partial last line is ignored; a symbolic
 * link is refused (SymlinkError). The records after a compact record are applied to its table
 * whether or not they were already: applying the same records again leaves it as it was.
 */
export async function readJournal(path: string, hints: ReadHints = {}): Promise<ReadResult> {
  const result: ReadResult = { meta: undefined, compact: false, lines: new Map(), done: DoneKeys.empty(hints.expected), doneFile: undefined, lastInput: undefined, lastRun: undefined, goodBytes: 0, torn: false };
  let fd: number;
  try {
    fd = openOwnFile(path, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  /** Version 1 names a line in its outcomes: the identity of the line's last `sent`. */
  const byLine = new Map<number, string>();
  // Split by hand rather than with readline, whose async iterator queues lines faster than they
  // are used: a million-line journal would sit in memory at once.
  let lineNo = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { fd, highWaterMark: 256 * 1024 })) {
    let data = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    let newline: number;
    while ((newline = data.indexOf(0x0a)) !== -1) {
      lineNo++;
      let record: unknown;
      try {
        record = JSON.parse(data.toString('utf8', 0, newline));
      } catch {
        record = undefined;
      }
      if (!isJournalRecord(record)) throw new CorruptJournalError(path, `:${lineNo}: not a journal record`);
      result.goodBytes += newline + 1;
      apply(result, record, path, byLine, hints.known);
      data = data.subarray(newline + 1);
    }
    rest = Buffer.from(data);
  }
  // What follows the last newline is a write cut short.
  if (!result.torn && result.goodBytes < size) result.torn = true;
  return result;
}

/**
 * The journal as read at open, to which a run applies each record it writes (`applyRecord`): it is
 * then what reading the journal back would give, without reading it. Its `done` is the one read, its
 * lines a copy. A journal of the current version only (version 1 names lines by number).
 */
export function appliedFromOpen(read: ReadResult): ReadResult {
  return { ...read, lines: new Map([...read.lines].map(([identity, state]) => [identity, { ...state }])) };
}

/** One record written after `appliedFromOpen`, applied as reading applies it. */
export function applyRecord(result: ReadResult, record: JournalRecord, path: string): void {
  apply(result, record, path, NO_LINE_NUMBERS, undefined);
}

/** Version 1's map of lines to identities: a journal of the current version needs none. */
const NO_LINE_NUMBERS: Map<number, string> = new Map();

function apply(result: ReadResult, record: JournalRecord, path: string, byLine: Map<number, string>, known: ReadHints['known']): void {
  // Input and run records after a compaction leave it compact: no request changed.
  if (record.t !== 'input' && record.t !== 'run' && record.t !== 'meta') result.compact = record.t === 'compact';
  switch (record.t) {
    case 'meta':
      result.meta = record;
      return;
    case 'input':
      result.lastInput = record;
      return;
    case 'run':
      result.lastRun = record;
      return;
    case 'compact':
      result.doneFile = basename(record.file);
      try {
        result.done = known?.file === result.doneFile ? known.done : DoneKeys.read(join(dirname(path), result.doneFile), record.sha256);
      } catch (error) {
        // A link or a FIFO there is said as such (own-file.ts); damage is this journal's.
        if (error instanceof UsageError) throw error;
        throw new CorruptJournalError(path, `: its done file ${record.file} cannot be read (${(error as Error).message})`);
      }
      result.lines = new Map();
      byLine.clear();
      return;
    case 'sent': {
      const identity = identityOf(record);
      // Only a journal of version 1 names lines in its outcomes: a map of a million lines otherwise for nothing.
      if (result.meta?.v === 1) byLine.set(record.line, identity);
      // Sent anew (a journal of version 1 under a reused batch id: its bytes changed): it starts over.
      result.done.delete(identity);
      result.lines.set(identity, { sent: record });
      return;
    }
    case 'done': {
      const identity = record.k ?? byLine.get(record.line);
      if (identity === undefined) return;
      result.done.set(identity, result.lines.get(identity)?.sent?.line ?? record.line, record.id, record.p);
      result.lines.delete(identity);
      return;
    }
    case 'rejected': {
      const identity = record.k ?? byLine.get(record.line);
      if (identity === undefined) return;
      const state = result.lines.get(identity) ?? {};
      state.rejected = record;
      result.lines.set(identity, state);
      return;
    }
    case 'queued': {
      const state = result.lines.get(record.k);
      if (state !== undefined) state.queued = record;
      return;
    }
  }
}
