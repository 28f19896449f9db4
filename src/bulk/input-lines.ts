import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { addAbortSignal, Readable } from 'node:stream';
import { UsageError } from '../errors.js';

/**
 * Bulk input as physical lines (CSV records are gathered from them by csv/records.ts), in
 * bounded memory: a line is gathered as a list of the read chunks' pieces and joined once, a line
 * longer than MAX_LINE_BYTES is dropped as it is read and skipped to its end, and a NUL byte ends
 * the reading (input holding one is not text). Handed on a read chunk at a time, as it is read.
 */

/** The longest line (or CSV record) read; a longer one is one bad line, skipped to its end. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Bytes asked of a file per read: also how much of the input is looked at before the first line is handed on. */
export const READ_CHUNK_BYTES = 64 * 1024;

export interface RawLine {
  /** 1-based number of the line where it starts. */
  readonly line: number;
  /** Its bytes without the line break (a BOM at the start of the input removed); undefined when too long. */
  readonly bytes: Buffer | undefined;
}

/** A file path, or an open stream (standard input). */
export type InputSource = string | NodeJS.ReadableStream;

export interface SplitOptions {
  /** CSV: a lone CR ends lines when the input's first line break is one (old Macintosh CSV, as spreadsheets still write it). */
  csv: boolean;
  /** Set to the byte that ends the lines once the first read is seen. */
  lineBreak?: { byte: number } | undefined;
  /** Stops the reading at once (also a read waiting on a slow pipe): the lines end there, without an error. */
  signal?: AbortSignal | undefined;
  /** The name messages give the input (its path, or "-"). */
  name: string;
}

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/**
 * The input holds a NUL byte, so it is not text (a binary file, UTF-16, a device such as
 * /dev/zero). `line` is undefined when the NUL byte was in the first read, before any line was
 * handed on: then nothing was sent.
 */
export class NotTextError extends UsageError<'--from'> {
  constructor(
    readonly input: string,
    readonly line: number | undefined,
  ) {
    super(
      line === undefined
        ? `${input} holds NUL bytes: it is not a text file (NDJSON or CSV); nothing was sent`
        : `${input}:${line}: holds a NUL byte: the input is not text from here on; reading stopped at this line (the lines before it were handled, none after it)`,
      '--from',
      line === undefined ? 'give a UTF-8 NDJSON or CSV file' : 'remove what is not text from the file and run the same command again',
    );
  }
}

/** True when a chunk holds a NUL byte (input that starts so is refused before anything is sent). */
export function holdsNul(chunk: Uint8Array): boolean {
  return chunk.indexOf(NUL) !== -1;
}

/** A --from path that is not a regular file (a pipe such as `<(cmd)`, /dev/stdin, a device) can be read only once. */
export function isPipedPath(path: string): boolean {
  return !statSync(path).isFile();
}

/** Refuses a file whose first read holds a NUL byte (NotTextError), before anything is done with it. */
export async function refuseNonText(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const first = Buffer.alloc(READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(first, 0, first.length, 0);
    if (holdsNul(first.subarray(0, bytesRead))) throw new NotTextError(path, undefined);
  } finally {
    await handle.close();
  }
}

/** Opens a path for reading (64 KiB reads), or takes a stream as it is; either ends when `signal` aborts. */
export function openSource(source: InputSource, signal: AbortSignal | undefined): NodeJS.ReadableStream {
  if (typeof source === 'string') return createReadStream(source, { highWaterMark: READ_CHUNK_BYTES, ...(signal === undefined ? {} : { signal }) });
  if (signal === undefined) return source;
  // Aborting destroys the stream, which ends a read waiting on a slow pipe.
  return addAbortSignal(signal, source instanceof Readable ? source : Readable.from(source));
}

/** Where one physical line ends: the next LF, or (CSV) the next lone CR when the input's first line break is one. */
class LineBoundary {
  private eol: number | undefined;

  constructor(
    private readonly csv: boolean,
    private readonly found: { byte: number } | undefined,
  ) {}

  find(chunk: Buffer, from: number): number {
    if (this.eol === undefined) {
      this.eol = this.csv ? recordBreak(chunk) : LF;
      if (this.found !== undefined) this.found.byte = this.eol;
    }
    return chunk.indexOf(this.eol, from);
  }
}

/** LF, unless the first line break of the input is a CR not followed by LF. */
function recordBreak(chunk: Buffer): number {
  const lf = chunk.indexOf(LF);
  const cr = chunk.indexOf(CR);
  return cr !== -1 && (lf === -1 || cr < lf) && cr + 1 < chunk.length && chunk[cr + 1] !== LF ? CR : LF;
}

/**
 * The input's physical lines, a read chunk's worth at a time. Throws NotTextError at a NUL
 * byte: before anything when the first read holds one, else after handing on the lines before it.
 */
export async function* splitLines(source: InputSource, opts: SplitOptions): AsyncGenerator<RawLine[]> {
  const boundary = new LineBoundary(opts.csv, opts.lineBreak);
  /** Pieces of the line under way, joined once when it ends. */
  let pieces: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  /** Number of the line under way, and of the next line break. */
  let line = 1;
  let first = true;
  const end = (): RawLine => {
    const raw: RawLine = { line, bytes: tooLong ? undefined : pieces.length === 1 ? Buffer.from(pieces[0] as Buffer) : Buffer.concat(pieces, length) };
    line += 1;
    pieces = [];
    length = 0;
    tooLong = false;
    return raw;
  };
  const add = (piece: Buffer): void => {
    if (tooLong || piece.length === 0) return;
    if (length + piece.length > MAX_LINE_BYTES) {
      tooLong = true;
      pieces = [];
      length = 0;
      return;
    }
    pieces.push(piece);
    length += piece.length;
  };
  try {
    for await (const read of openSource(source, opts.signal)) {
      let chunk = read as Buffer;
      const nul = chunk.indexOf(NUL);
      if (nul !== -1 && first) throw new NotTextError(opts.name, undefined);
      if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      first = false;
      // Only what precedes a NUL byte is split; the line holding it ends the reading.
      const scan = nul === -1 ? chunk : chunk.subarray(0, nul);
      const lines: RawLine[] = [];
      let start = 0;
      for (let at = boundary.find(scan, 0); at !== -1; at = boundary.find(scan, start)) {
        add(scan.subarray(start, at));
        lines.push(end());
        start = at + 1;
      }
      add(scan.subarray(start));
      if (lines.length > 0) yield lines;
      if (nul !== -1) throw new NotTextError(opts.name, line);
    }
  } catch (error) {
    if (opts.signal?.aborted && !(error instanceof NotTextError)) return;
    throw error;
  }
  if (length > 0 || tooLong) yield [end()];
}
