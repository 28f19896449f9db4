import type { RawLine } from '../input-lines.js';
import { MAX_LINE_BYTES } from '../input-lines.js';
import type { Delimiter } from './delimiter.js';
import { detectDelimiter } from './delimiter.js';

/**
 * CSV records from physical lines. A quoted field may hold line breaks (a notes cell), but only
 * when its record then closes with the header's column count: the lines are looked ahead (at most
 * MAX_RECORD_LINES and MAX_LINE_BYTES) until the quote closes. When it does not close so, the
 * quote was a stray one: its own physical line is one bad record, and reading resumes on the next
 * physical line, so no good line after a stray quote is lost. Memory is bounded by the look-ahead.
 */

/** The most physical lines one record may span. */
export const MAX_RECORD_LINES = 1000;

export interface RawRecord {
  /** 1-based number of its first physical line. */
  readonly line: number;
  /** Its last physical line (the same as `line` unless a quoted cell holds line breaks). */
  readonly endLine: number;
  /** Its bytes, line breaks inside included; undefined when too long. */
  readonly bytes: Buffer | undefined;
  /** Its quote did not close into a record of the header's column count: the 0-based field the quote opened in. */
  readonly unclosed?: number;
}

const QUOTE = 0x22;
const CR = 0x0d;

/** Where a record's scan stands at the end of a physical line. */
interface Scan {
  quoted: boolean;
  /** Delimiters outside quotes so far (fields − 1). */
  delimiters: number;
  atFieldStart: boolean;
  /** The field the open quote opened in. */
  openedIn: number;
  /** Text follows a closing quote: not a record that closes cleanly. */
  broken: boolean;
}

function freshScan(): Scan {
  return { quoted: false, delimiters: 0, atFieldStart: true, openedIn: 0, broken: false };
}

/** Advances `scan` over one physical line (RFC 4180: a quote opens a field only at its start; `""` inside one is a quote). */
function scanLine(bytes: Buffer, delimiter: number, scan: Scan): void {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  let closed = false;
  for (let at = 0; at < bytes.length; at++) {
    if (scan.quoted) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote === -1) return;
      if (bytes[quote + 1] === QUOTE) {
        at = quote + 1;
        continue;
      }
      scan.quoted = false;
      closed = true;
      at = quote;
      continue;
    }
    const byte = bytes[at] as number;
    if (byte === delimiter) {
      scan.delimiters++;
      scan.atFieldStart = true;
      closed = false;
      continue;
    }
    if (at >= end) continue;
    if (closed) {
      scan.broken = true;
      closed = false;
    } else if (byte === QUOTE && scan.atFieldStart) {
      scan.quoted = true;
      scan.openedIn = scan.delimiters;
    }
    scan.atFieldStart = false;
  }
}

function isBlank(bytes: Buffer | undefined): boolean {
  return bytes !== undefined && (bytes.length === 0 || (bytes.length === 1 && bytes[0] === CR));
}

export class CsvRecords {
  /** Fields of the header, once read. */
  private columns: number | undefined;
  /** The lines of a record whose quoted field spans lines, while it is looked ahead. */
  private pending: RawLine[] = [];
  private pendingBytes = 0;
  private scan: Scan = freshScan();
  /** The field the quote of the pending record's first line opened in. */
  private firstOpenedIn = 0;

  /**
   * @param delimiter given by --delimiter; else detected from the header line.
   * @param lineBreak the byte that ends a physical line (LF, or CR in an old Macintosh file).
   */
  constructor(
    private delimiter: Delimiter | undefined,
    private readonly lineBreak: () => number,
  ) {}

  /** The delimiter (known once the header line was met). */
  get separator(): Delimiter | undefined {
    return this.delimiter;
  }

  /** Hands on to `out` the records that end with this physical line (or with earlier lines it proves bad). */
  push(raw: RawLine, out: RawRecord[]): void {
    if (this.pending.length > 0) return this.continueRecord(raw, out);
    const bytes = raw.bytes;
    if (bytes === undefined || isBlank(bytes)) {
      out.push({ line: raw.line, endLine: raw.line, bytes });
      return;
    }
    const delimiter = (this.delimiter ??= detectDelimiter(bytes));
    // Most lines hold no quote: a record of their own, whose fields csv-parse counts.
    if (this.columns !== undefined && bytes.indexOf(QUOTE) === -1) {
      out.push({ line: raw.line, endLine: raw.line, bytes });
      return;
    }
    const scan = freshScan();
    scanLine(bytes, delimiter, scan);
    if (!scan.quoted) {
      this.columns ??= scan.delimiters + 1;
      out.push({ line: raw.line, endLine: raw.line, bytes });
      return;
    }
    this.scan = scan;
    this.firstOpenedIn = scan.openedIn;
    this.pending = [raw];
    this.pendingBytes = bytes.length;
  }

  /** The input ended: a record still open was never closed. */
  end(out: RawRecord[]): void {
    while (this.pending.length > 0) this.fail(out);
  }

  private continueRecord(raw: RawLine, out: RawRecord[]): void {
    const bytes = raw.bytes;
    this.pending.push(raw);
    if (bytes === undefined || this.pending.length > MAX_RECORD_LINES || (this.pendingBytes += bytes.length + 1) > MAX_LINE_BYTES) return this.fail(out);
    scanLine(bytes, this.delimiter as number, this.scan);
    if (this.scan.quoted) return;
    const fields = this.scan.delimiters + 1;
    if (this.scan.broken || (this.columns !== undefined && fields !== this.columns)) return this.fail(out);
    this.columns ??= fields;
    const lines = this.pending;
    this.pending = [];
    const first = lines[0] as RawLine;
    const separator = Buffer.of(this.lineBreak());
    const parts: Buffer[] = [];
    for (const line of lines) {
      if (parts.length > 0) parts.push(separator);
      parts.push(line.bytes as Buffer);
    }
    out.push({ line: first.line, endLine: raw.line, bytes: Buffer.concat(parts) });
  }

  /** The pending record's first line is bad alone; the lines looked ahead are read again as lines of their own. */
  private fail(out: RawRecord[]): void {
    const [first, ...rest] = this.pending as [RawLine, ...RawLine[]];
    this.pending = [];
    this.pendingBytes = 0;
    out.push({ line: first.line, endLine: first.line, bytes: first.bytes, unclosed: this.firstOpenedIn });
    for (const raw of rest) this.push(raw, out);
  }
}
