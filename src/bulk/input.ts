import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { UUID_PATTERN } from '../schemas/parcel-id.js';
import type { InputFormat } from './input-format.js';
import type { InputSource, RawLine } from './input-lines.js';
import type { InputTally } from './input-tally.js';
import { MAX_LINE_BYTES, splitLines } from './input-lines.js';
import { INTEGER_PARCEL_FIELDS } from '../schemas/parcel-fields.js';

export type { InputSource } from './input-lines.js';

/**
 * Reads bulk input as a stream, one item per non-empty line (NDJSON) or record (CSV), handed on in
 * batches (the lines of one read chunk) so the engine can journal them with one write; never the
 * whole file at once. A line that cannot be read (not UTF-8, not JSON, not CSV, a ragged CSV row,
 * over 1 MiB) is one item with a `problem`; only a problem of the CSV header, or a NUL byte (see
 * input-lines.ts), stops the reading.
 */

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line where the record starts). */
  readonly line: number;
  /** The record's last line, when it spans lines. */
  readonly endLine?: number | undefined;
  /** The line's exact bytes, without its line terminator (empty for a line too long to keep). */
  readonly bytes: Buffer;
  /** The parsed object, or undefined when the line is not one (see `problem`). */
  readonly record: Record<string, unknown> | undefined;
  /** The bytes are the record's own JSON text (an NDJSON object line), so they can be sent as they are. */
  readonly json: boolean;
  readonly problem?: string | undefined;
  /** The value of the --id-column (the user's order or shipment number, never sent): what the created index matches the line by. */
  readonly identity?: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Fields the spec types as integers: in CSV, where every cell is text, their digits become numbers. */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  ...INTEGER_PARCEL_FIELDS,
  'status', 'occurred_at', 'time_attempt', 'outcome', 'reason', 'attempt_no', 'delivered_location_type',
]);
export interface ReadOptions {
  /** A line that is only a UUID stands for `{"entry_id": …}` (events and attempts). */
  bareIds: boolean;
  /** Ends the reading at once, even while it waits on a slow pipe: the lines simply end. */
  signal?: AbortSignal | undefined;
  /** How messages name the input (default: its path, or "-" for a stream). */
  name?: string | undefined;
  /** Counts the lines read that are no record: header, blank, continuation. */
  tally?: InputTally | undefined;
}

export function readInput(source: InputSource, format: InputFormat, opts: ReadOptions): AsyncGenerator<InputLine[]> {
  const name = opts.name ?? (typeof source === 'string' ? source : '-');
  const lines = splitLines(source, { csv: format === 'csv', signal: opts.signal, name, tally: opts.tally });
  return format === 'csv' ? readCsv(lines, name, opts.tally) : readNdjson(lines, opts.bareIds, opts.tally);
}

const TOO_LONG = `is too long (over ${MAX_LINE_BYTES / 1024 / 1024} MiB): skipped to its end`;
const NOT_UTF8 = 'is not valid UTF-8 text';

type Parsed = Pick<InputLine, 'record' | 'json' | 'problem'>;

/** A line that could not be read at all. */
function badLine(line: number, bytes: Buffer, problem: string, endLine?: number): InputLine {
  return { line, endLine, bytes, record: undefined, json: false, problem };
}

/** The line's text without a trailing CR; undefined when the bytes are not UTF-8. */
function lineText(bytes: Buffer): { bytes: Buffer; text: string } | undefined {
  const trimmed = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
  try {
    return { bytes: trimmed, text: utf8.decode(trimmed) };
  } catch {
    return undefined;
  }
}

async function* readNdjson(lines: AsyncIterable<RawLine[]>, bareIds: boolean, tally: InputTally | undefined): AsyncGenerator<InputLine[]> {
  for await (const raws of lines) {
    const batch: InputLine[] = [];
    for (const raw of raws) {
      const item = ndjsonLine(raw, bareIds);
      if (item !== undefined) batch.push(item);
      else if (tally !== undefined) tally.blank++;
    }
    if (batch.length > 0) yield batch;
  }
}

function ndjsonLine({ line, bytes }: RawLine, bareIds: boolean): InputLine | undefined {
  if (bytes === undefined) return badLine(line, Buffer.alloc(0), TOO_LONG);
  const read = lineText(bytes);
  if (read === undefined) return badLine(line, bytes, NOT_UTF8);
  const text = read.text.trim();
  if (text === '') return undefined;
  return new NdjsonLine(line, read.bytes, text, bareIds);
}

/** Parsed only when asked: a line an earlier run confirmed is replayed from its bytes alone. */
class NdjsonLine implements InputLine {
  private parsed: Parsed | undefined;

  constructor(
    readonly line: number,
    readonly bytes: Buffer,
    private readonly text: string,
    private readonly bareIds: boolean,
  ) {}

  get record(): Record<string, unknown> | undefined {
    return this.parse().record;
  }

  get json(): boolean {
    return this.parse().json;
  }

  get problem(): string | undefined {
    return this.parse().problem;
  }

  private parse(): Parsed {
    this.parsed ??= parseNdjson(this.text, this.bareIds);
    return this.parsed;
  }
}

function parseNdjson(text: string, bareIds: boolean): Parsed {
  if (bareIds && UUID_PATTERN.test(text)) return { record: { entry_id: text }, json: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { record: undefined, json: false, problem: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { record: undefined, json: false, problem: bareIds ? 'must be a JSON object or a bare parcel id' : 'must be a JSON object' };
  }
  return { record: value as Record<string, unknown>, json: true };
}

const CSV_OPTIONS = { record_delimiter: '\n', relax_column_count: true } as const;

/** One CSV record's fields. */
function csvFields(text: string): string[] {
  const records = parseCsv(text, CSV_OPTIONS) as string[][];
  if (records.length !== 1) throw new CsvRecordError(`holds ${records.length} records`);
  return records[0] as string[];
}

/**
 * The fields of each record (already split by input-lines.ts), or why it is not CSV: the records
 * of a read are parsed with one call; when that fails, each alone, so a bad record is bad alone.
 */
function csvRecords(texts: readonly string[]): Array<string[] | CsvProblem> {
  if (texts.length > 1) {
    try {
      const records = parseCsv(texts.join('\n'), CSV_OPTIONS) as string[][];
      if (records.length === texts.length) return records;
    } catch {
      // One of them is bad: found below.
    }
  }
  return texts.map((text) => {
    try {
      return csvFields(text);
    } catch (error) {
      return { problem: csvProblem(error) };
    }
  });
}

interface CsvProblem {
  problem: string;
}

class CsvRecordError extends Error {}

/** csv-parse's reason, without its "at line 1" (the line of the one record it was given). */
function csvProblem(error: unknown): string {
  if (error instanceof CsvRecordError) return error.message;
  const code = (error as { code?: string }).code;
  if (code === 'CSV_QUOTE_NOT_CLOSED') return 'is not valid CSV (a quote is never closed)';
  if (code === 'CSV_INVALID_CLOSING_QUOTE') return 'is not valid CSV (text follows a closing quote)';
  if (code === 'INVALID_OPENING_QUOTE' || code === 'CSV_INVALID_OPENING_QUOTE') return 'is not valid CSV (a quote inside an unquoted field)';
  return `is not valid CSV (${(error as Error).message.replace(/ at line \d+/, '')})`;
}

/**
 * The first non-blank record is the header (API field names); each later record is one line. A
 * header that cannot be read refuses the whole input before anything is sent.
 */
async function* readCsv(lines: AsyncIterable<RawLine[]>, name: string, tally: InputTally | undefined): AsyncGenerator<InputLine[]> {
  let header: readonly string[] | undefined;
  type Readable = { line: number; endLine: number | undefined; bytes: Buffer; text: string };
  for await (const raws of lines) {
    const entries: Array<InputLine | Readable> = [];
    for (const raw of raws) {
      if (header === undefined) {
        header = csvHeader(raw, name);
        if (tally !== undefined) tally[header === undefined ? 'blank' : 'header']++;
      } else if (raw.bytes === undefined) entries.push(badLine(raw.line, Buffer.alloc(0), TOO_LONG, raw.endLine));
      else {
        const read = lineText(raw.bytes);
        if (read === undefined) entries.push(badLine(raw.line, raw.bytes, NOT_UTF8, raw.endLine));
        else if (read.text !== '') entries.push({ line: raw.line, endLine: raw.endLine, ...read });
        else if (tally !== undefined) tally.blank++;
      }
    }
    if (entries.length === 0 || header === undefined) continue;
    const columns = header;
    const readable = entries.filter((entry): entry is Readable => 'text' in entry);
    const fields = csvRecords(readable.map((entry) => entry.text));
    let next = 0;
    yield entries.map((entry) => ('text' in entry ? csvLine(entry, fields[next++] as string[] | CsvProblem, columns) : entry));
  }
}

function csvHeader({ line, bytes }: RawLine, name: string): readonly string[] | undefined {
  const refuse = (why: string): UsageError => new UsageError(`${name}:${line}: the CSV header ${why}; nothing was sent`, '--from', 'the first line of a CSV file names the API fields of its columns (e.g. courier,country,postal_code,number)');
  if (bytes === undefined) throw refuse(TOO_LONG.replace(': skipped to its end', ''));
  const read = lineText(bytes);
  if (read === undefined) throw refuse(NOT_UTF8);
  if (read.text === '') return undefined;
  let names: string[];
  try {
    names = csvFields(read.text);
  } catch (error) {
    throw refuse(csvProblem(error));
  }
  const seen = new Set<string>();
  for (const column of names) {
    if (seen.has(column)) throw refuse(`names the column "${column}" twice`);
    seen.add(column);
  }
  return names;
}

function csvLine({ line, endLine, bytes }: { line: number; endLine: number | undefined; bytes: Buffer }, fields: string[] | CsvProblem, header: readonly string[]): InputLine {
  if (!Array.isArray(fields)) return badLine(line, bytes, fields.problem, endLine);
  if (fields.length !== header.length) return badLine(line, bytes, `has ${fields.length} fields where the header has ${header.length}`, endLine);
  const cells: Record<string, string> = {};
  header.forEach((column, at) => (cells[column] = fields[at] as string));
  return { line, endLine, bytes, record: csvRecord(cells), json: false };
}

/** Empty cells are absent fields; integer fields with only digits become numbers. */
function csvRecord(cells: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, cell] of Object.entries(cells)) {
    if (cell === '') continue;
    record[name] = INTEGER_FIELDS.has(name) && /^-?\d+$/.test(cell) ? Number(cell) : cell;
  }
  return record;
}
