import { closeSync, createReadStream, fstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openOwnFile, SymlinkError } from './atomic.js';
import { DoneLines } from './journal-done.js';
import type { JournalMeta, JournalRecord, LineState } from './journal-records.js';

/** Reading a journal (src/config/journal.ts): what earlier runs left, record by record, or from a compaction's done file. */

export class CorruptJournalError extends Error {
  override readonly name = 'CorruptJournalError';
}

export interface ReadResult {
  meta: JournalMeta | undefined;
  lines: Map<number, LineState>;
  /** The journal is in its compact form: its meta and a compact record, nothing after it. */
  compact: boolean;
  done: DoneLines;
  /** Bytes up to the end of the last complete line. */
  goodBytes: number;
  /** The file ends in a partial line (a write cut short). */
  torn: boolean;
}

/** Reads a journal; a missing file is an empty journal; a partial last line is ignored; a symbolic link is refused (SymlinkError). */
export async function readJournal(path: string): Promise<ReadResult> {
  const result: ReadResult = { meta: undefined, compact: false, lines: new Map(), done: DoneLines.empty(), goodBytes: 0, torn: false };
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
  // Split by hand rather than with readline, whose async iterator queues lines faster than they
  // are used: a million-line journal would sit in memory at once.
  let lineNo = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { fd, highWaterMark: 256 * 1024 })) {
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
      apply(result, record, path);
      data = data.subarray(newline + 1);
    }
    rest = Buffer.from(data);
  }
  // What follows the last newline is a write cut short.
  if (!result.torn && result.goodBytes < size) result.torn = true;
  return result;
}

function apply(result: ReadResult, record: JournalRecord, path: string): void {
  result.compact = record.t === 'compact';
  if (record.t === 'meta') {
    result.meta = record;
    return;
  }
  if (record.t === 'compact') {
    try {
      result.done = DoneLines.read(join(dirname(path), basename(record.file)));
    } catch (error) {
      if (error instanceof SymlinkError) throw error;
      throw new CorruptJournalError(`${path}: its done file ${record.file} cannot be read (${(error as Error).message})`);
    }
    result.lines = new Map();
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
