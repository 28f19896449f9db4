import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openOwnFile } from '../../config/own-file.js';

/**
 * The journal's compact "done" file on disk: a JSON header line, then the packed sections of a
 * DoneKeys table (journal-done.ts) as they are in memory. Done files of version 1 (by line number)
 * are read too.
 */

export const DONE_FILE_VERSION = 3;

/**
 * The first line of a done file: the sections follow it. Version 3: tags (two 32-bit words per
 * entry, this machine's byte order), lines (32-bit), pairing tags (32-bit, src/bulk/pairing.ts),
 * states (a byte), ids (16 bytes), `count` of each. Version 2: the same without pairing tags (read
 * as 0: unknown). Version 1 (the released journal's): states, tags and ids of line numbers 0 to lines - 1.
 */
interface DoneFileHeader {
  v: number;
  count: number;
  lines?: number;
  /** Entry ids that are not UUIDs, by entry (v2) or line (v1) (null: the answer had none). */
  other: Array<[number, string | null]>;
}

export class DoneFileError extends Error {
  override readonly name = 'DoneFileError';
}

/** Reads entry `i` of a done file's sections. */
export interface PackedAt {
  tag(i: number): [number, number];
  line(i: number): number;
  pair(i: number): number;
  state(i: number): number;
  id(i: number): Buffer;
}

/** The packed sections of `count` entries, as the table holds them. */
export interface DoneSections {
  tags: Uint32Array<ArrayBufferLike>;
  lines: Uint32Array<ArrayBufferLike>;
  pairs: Uint32Array<ArrayBufferLike>;
  states: Uint8Array<ArrayBufferLike>;
  ids: Buffer;
}

/** What a done file holds: version 3's (or 2's) sections as they were read, or version 1's entries one by one. */
export type DoneFile =
  | { v: 2 | 3; count: number; sections: DoneSections; other: Map<number, string | undefined> }
  | { v: 1; count: number; at: PackedAt; other: Map<number, string | undefined> };

/** The first `count` entries of some sections. */
export interface DonePart {
  sections: DoneSections;
  count: number;
}

/**
 * The compact form of the entries of `parts`, one after the other (their non-UUID ids by entry
 * over all of them), as chunks to write one after the other: no part is copied.
 */
export function doneFileChunks(parts: readonly DonePart[], other: Array<[number, string | null]>): Uint8Array[] {
  const view = (array: Uint32Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike>): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const count = parts.reduce((sum, part) => sum + part.count, 0);
  const header: DoneFileHeader = { v: DONE_FILE_VERSION, count, other };
  return [
    Buffer.from(`${JSON.stringify(header)}\n`),
    ...parts.map(({ sections, count: n }) => view(sections.tags.subarray(0, 2 * n))),
    ...parts.map(({ sections, count: n }) => view(sections.lines.subarray(0, n))),
    ...parts.map(({ sections, count: n }) => view(sections.pairs.subarray(0, n))),
    ...parts.map(({ sections, count: n }) => view(sections.states.subarray(0, n))),
    ...parts.map(({ sections, count: n }) => sections.ids.subarray(0, 16 * n)),
  ];
}

/** The SHA-256 (hex) of a done file's bytes, from the chunks it is written from: its journal's compact record keeps it. */
export function doneFileSha256(chunks: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * A done file, checked (its header and its size, and its bytes against `sha256` when its journal
 * recorded one: a flipped byte would otherwise replay a wrong entry id as done) and read whole. A
 * version-1 file is by line number: its entries come back under the tags of the keys it was
 * written with, at their lines.
 */
export function readDoneFile(path: string, sha256?: string): DoneFile {
  const fd = openOwnFile(path, 'read');
  try {
    const { header, offset } = readHeader(fd, path);
    const size = fstatSync(fd).size;
    // Buffer.alloc is never taken from the shared pool: its own memory, from offset 0, so its words can be viewed in place.
    const data = Buffer.alloc(size - offset);
    if (readSync(fd, data, 0, data.length, offset) !== data.length) throw new DoneFileError(`${path}: shorter than its size`);
    if (sha256 !== undefined && fileSha256(fd, offset, data) !== sha256) throw new DoneFileError(`${path}: its bytes are not those its journal recorded (SHA-256 differs)`);
    return header.v === 1 ? fromV1(header, data, path) : fromV2(header, data, path, header.v === 3);
  } finally {
    closeSync(fd);
  }
}

/** The SHA-256 of the whole file: its header line (read again: it is small) and `data`, what follows it. */
function fileSha256(fd: number, offset: number, data: Buffer): string {
  const head = Buffer.alloc(offset);
  readSync(fd, head, 0, offset, 0);
  return doneFileSha256([head, data]);
}

function otherMap(header: DoneFileHeader): Map<number, string | undefined> {
  return new Map(header.other.map(([at, id]) => [at, id ?? undefined]));
}

/** Version 3, or version 2 (`paired` false: no pairing tags, read as 0). */
function fromV2(header: DoneFileHeader, data: Buffer, path: string, paired: boolean): DoneFile {
  const n = header.count;
  const words = paired ? 4 : 3;
  if (!Number.isInteger(n) || n < 0 || data.length !== n * (4 * words + 1 + 16)) throw new DoneFileError(`${path}: ${data.length} bytes after its header, not ${n} entries`);
  // `data` has a buffer of its own from offset 0 (readDoneFile): its sections can become the entries as they are.
  const sections = {
    tags: new Uint32Array(data.buffer, data.byteOffset, 2 * n),
    lines: new Uint32Array(data.buffer, data.byteOffset + 8 * n, n),
    pairs: paired ? new Uint32Array(data.buffer, data.byteOffset + 12 * n, n) : new Uint32Array(n),
    states: data.subarray(4 * words * n, (4 * words + 1) * n),
    ids: data.subarray((4 * words + 1) * n),
  };
  return { v: paired ? 3 : 2, count: n, sections, other: otherMap(header) };
}

function fromV1(header: DoneFileHeader, data: Buffer, path: string): DoneFile {
  const n = header.lines ?? -1;
  if (!Number.isInteger(n) || n < 0 || data.length !== n * 25) throw new DoneFileError(`${path}: ${data.length} bytes after its header, not ${n} lines`);
  // The sections start at offsets that are not multiples of 4: copy the tags before viewing them as words.
  const tags = new Uint32Array(new Uint8Array(data.subarray(n, 9 * n)).buffer, 0, 2 * n);
  const at: PackedAt = {
    tag: (i) => [tags[2 * i] as number, tags[2 * i + 1] as number],
    line: (i) => i,
    pair: () => 0,
    state: (i) => data[i] as number,
    id: (i) => data.subarray(9 * n + 16 * i, 9 * n + 16 * i + 16),
  };
  return { v: 1, count: n, at, other: otherMap(header) };
}

function readHeader(fd: number, path: string): { header: DoneFileHeader; offset: number } {
  let text = Buffer.alloc(0);
  for (let at = 0; ; ) {
    const chunk = Buffer.alloc(64 * 1024);
    const read = readSync(fd, chunk, 0, chunk.length, at);
    const newline = chunk.subarray(0, read).indexOf(0x0a);
    text = Buffer.concat([text, chunk.subarray(0, newline === -1 ? read : newline)]);
    if (newline !== -1) {
      let header: DoneFileHeader;
      try {
        header = JSON.parse(text.toString('utf8')) as DoneFileHeader;
      } catch {
        throw new DoneFileError(`${path}: not a done file`);
      }
      if (![1, 2, DONE_FILE_VERSION].includes(header.v) || !Array.isArray(header.other)) {
        throw new DoneFileError(`${path}: not a done file of version 1 to ${DONE_FILE_VERSION}`);
      }
      return { header, offset: text.length + 1 };
    }
    if (read === 0) throw new DoneFileError(`${path}: not a done file`);
    at += read;
  }
}
