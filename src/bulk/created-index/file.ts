import { closeSync, fstatSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openOwnFile } from '../../config/own-file.js';
import { journalPath } from '../journal/paths.js';

/**
 * The files of a target's index of created requests, next to its journals
 * (journals/<hash of target>/): `created.idx`, fixed-size binary records appended as requests are
 * confirmed, and `created.batches`, one NDJSON line per batch run that added records (its number in
 * the records, its journal batch, its input, when it ran). Both are opened with the one safe opener
 * (no symbolic links, regular files only) and only ever appended to, except by `batches prune`,
 * which rewrites them without what it removed. kill -9 can tear the last record or line: a reader
 * ignores a partial record, and the next writer completes it with zeros (a record of kind 0, which
 * readers skip) so the records after it stay aligned.
 */

export const RECORD_BYTES = 40;

/** What a record's tag is the tag of. */
export const RECORD_KIND = { request: 1, identity: 2 } as const;
export type RecordKind = (typeof RECORD_KIND)[keyof typeof RECORD_KIND];

/** One confirmed request (or the identity value of its line), as kept in `created.idx`. */
export interface IndexRecord {
  kind: RecordKind;
  /** The first 64 bits of the request digest (or of the identity value's hash), as two words. */
  high: number;
  low: number;
  /** Which occurrence of this request in its batch (0-based); 0 for an identity. */
  occurrence: number;
  /** The batch's number in `created.batches`. */
  batch: number;
  line: number;
  /** Unix seconds it was confirmed. */
  at: number;
  /** The parcel's id when it is a UUID (the service's ids are). */
  entryId: string | undefined;
}

/** One batch run as `created.batches` keeps it. */
export interface IndexBatch {
  /** Its number in the records (1-based). */
  n: number;
  /** The journal's batch: `create~<batch id>`. */
  batch: string;
  /** The input's path, or "-". */
  input: string;
  /** When it (last) ran, ms since the epoch. */
  at: number;
}

export function indexDir(dataDir: string, target: string): string {
  return dirname(journalPath(dataDir, target, 'index'));
}

export function recordsPath(dir: string): string {
  return join(dir, 'created.idx');
}

export function batchesPath(dir: string): string {
  return join(dir, 'created.batches');
}

const UUID = /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i;

/** Writes `record` into `into` at `at`. */
export function encodeRecord(record: IndexRecord, into: Buffer, at = 0): void {
  into.fill(0, at, at + RECORD_BYTES);
  into.writeUInt32LE(record.high >>> 0, at);
  into.writeUInt32LE(record.low >>> 0, at + 4);
  into.writeUInt32LE(record.occurrence, at + 8);
  into.writeUInt32LE(record.line, at + 12);
  into.writeUInt16LE(record.batch, at + 16);
  into.writeUInt8(record.kind, at + 18);
  into.writeUInt32LE(record.at >>> 0, at + 20);
  const uuid = record.entryId === undefined ? null : UUID.exec(record.entryId);
  if (uuid !== null) {
    into.writeUInt8(1, at + 19);
    Buffer.from(uuid.slice(1).join(''), 'hex').copy(into, at + 24);
  }
}

/** The record at `at`, or undefined for a filler (kind 0). */
export function decodeRecord(from: Buffer, at = 0): IndexRecord | undefined {
  const kind = from.readUInt8(at + 18);
  if (kind !== RECORD_KIND.request && kind !== RECORD_KIND.identity) return undefined;
  return {
    kind,
    high: from.readUInt32LE(at),
    low: from.readUInt32LE(at + 4),
    occurrence: from.readUInt32LE(at + 8),
    line: from.readUInt32LE(at + 12),
    batch: from.readUInt16LE(at + 16),
    at: from.readUInt32LE(at + 20),
    entryId: from.readUInt8(at + 19) === 1 ? uuidText(from.subarray(at + 24, at + 40)) : undefined,
  };
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Opens a file of the index for appending; a partial last record (a write cut short) is completed with zeros. */
export function openRecordsForAppend(dir: string): number {
  const fd = openOwnFile(recordsPath(dir), 'append');
  try {
    const torn = fstatSync(fd).size % RECORD_BYTES;
    if (torn !== 0) writeSync(fd, Buffer.alloc(RECORD_BYTES - torn));
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A file of the index opened for reading, or undefined when there is none yet. */
export function openForRead(path: string): number | undefined {
  try {
    return openOwnFile(path, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every whole record of `created.idx`, a chunk at a time: `each(chunk, count, first record number, a DataView of the chunk)`. */
export function forEachRecordChunk(dir: string, each: (chunk: Buffer, count: number, first: number, view: DataView) => void): void {
  const fd = openForRead(recordsPath(dir));
  if (fd === undefined) return;
  try {
    const chunk = Buffer.allocUnsafe(RECORD_BYTES * 16_384);
    // The same bytes for a scan of every record: DataView's reads cost a third of Buffer's readUInt32LE (BENCHMARKS.md).
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let position = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      const count = Math.floor(read / RECORD_BYTES);
      if (count === 0) return;
      each(chunk, count, position / RECORD_BYTES, view);
      position += count * RECORD_BYTES;
    }
  } finally {
    closeSync(fd);
  }
}

/** The record numbered `n` (0-based), read from an open `created.idx`. */
export function readRecordAt(fd: number, n: number): IndexRecord | undefined {
  const buffer = Buffer.alloc(RECORD_BYTES);
  if (readSync(fd, buffer, 0, RECORD_BYTES, n * RECORD_BYTES) < RECORD_BYTES) return undefined;
  return decodeRecord(buffer);
}

/** `created.batches` read: the batches by number, and the number the next new batch gets (a pruned batch's is never given again). */
export interface IndexBatches {
  live: Map<number, IndexBatch>;
  next: number;
}

/** A batch `batches prune` removed: its records are ignored, and dropped when the records are next rewritten. */
export interface PrunedBatch {
  n: number;
  pruned: true;
}

/** The batches of `created.batches` (a batch's later runs update its time). A torn or foreign line is skipped. */
export function readBatches(dir: string): IndexBatches {
  const live = new Map<number, IndexBatch>();
  let next = 1;
  for (const parsed of batchLines(dir)) {
    if (isPruned(parsed)) {
      live.delete(parsed.n);
      next = Math.max(next, parsed.n + 1);
      continue;
    }
    if (!isBatch(parsed)) continue;
    next = Math.max(next, parsed.n + 1);
    const known = live.get(parsed.n);
    live.set(parsed.n, known === undefined ? parsed : { ...known, at: Math.max(known.at, parsed.at) });
  }
  return { live, next };
}

function batchLines(dir: string): unknown[] {
  const fd = openForRead(batchesPath(dir));
  if (fd === undefined) return [];
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const got = readSync(fd, buffer, read, size - read, read);
      if (got === 0) break;
      read += got;
    }
    text = buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
  return text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
}

function isPruned(value: unknown): value is PrunedBatch {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).pruned === true && Number.isInteger((value as Record<string, unknown>).n);
}

function isBatch(value: unknown): value is IndexBatch {
  if (typeof value !== 'object' || value === null) return false;
  const batch = value as Record<string, unknown>;
  return Number.isInteger(batch.n) && typeof batch.batch === 'string' && typeof batch.input === 'string' && typeof batch.at === 'number';
}

/**
 * Appends one batch line (one write: concurrent runs on the same target do not interleave within
 * it). It starts with a newline too, so a line torn by kill -9 ends there instead of spoiling this one.
 */
export function appendBatch(dir: string, batch: IndexBatch | PrunedBatch): void {
  const fd = openOwnFile(batchesPath(dir), 'append');
  try {
    writeSync(fd, `\n${JSON.stringify(batch)}\n`);
  } finally {
    closeSync(fd);
  }
}
