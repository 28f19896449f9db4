import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { UUID_PATTERN } from '../schemas/parcel-id.js';
import type { InputFormat } from './input-format.js';
import type { InputSource, RawLine } from './input-lines.js';
import { MAX_LINE_BYTES, splitLines } from './input-lines.js';
import { INTEGER_PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { ColumnRules } from './csv/columns.js';
import { headerColumns, lineFields } from './csv/columns.js';
import type { Delimiter } from './csv/delimiter.js';
import type { RawRecord } from './csv/records.js';
import { CsvRecords } from './csv/records.js';

export type { InputSource } from './input-lines.js';

/**
 * Reads bulk input as a stream, one item per non-empty line (NDJSON) or record (CSV), handed on in
 * batches (the lines of one read chunk) so the engine can journal them with one write; never the
 * whole file at once. A line that cannot be read (not UTF-8, not JSON, not CSV, a ragged CSV row,
 * a stray quote, over 1 MiB) is one item with a `problem`; only a problem of the CSV header (an
 * unknown column included), or a NUL byte (see input-lines.ts), stops the reading. Every physical
 * line read is one item or counted in the tally (header, blank, continuation of a record).
 */

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line where the record starts). */
  readonly line: number;
  /** The last physical line of a record that spans lines (a quoted CSV cell holding line breaks). */
  readonly endLine?: number;
  /** The value of its --id-column (the user's order or shipment number): never sent. */
  readonly identity?: string | undefined;
  /** The line's exact bytes, without its line terminator (empty for a line too long to keep). */
  readonly bytes: Buffer;
  /** The parsed object, or undefined when the line is not one (see `problem`). */
  readonly record: Record<string, unknown> | undefined;
  /** The bytes are the record's own JSON text (an NDJSON object line), so they can be sent as they are. */
  readonly json: boolean;
  readonly problem?: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Fields the spec types as integers: in CSV, where every cell is text, their digits become numbers. */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  ...INTEGER_PARCEL_FIELDS,
  'status', 'occurred_at', 'time_attempt', 'outcome', 'reason', 'attempt_no', 'delivered_location_type',
]);
/** The physical lines read that are not items: with the items, they add up to the physical lines. */
export interface InputTally {
  physical: number;
  header: number;
  blank: number;
  /** Lines after the first of a record spanning lines. */
  continuation: number;
}

export function newTally(): InputTally {
  return { physical: 0, header: 0, blank: 0, continuation: 0 };
}

export interface ReadOptions {
  /** A line that is only a UUID stands for `{"entry_id": …}` (events and attempts). */
  bareIds: boolean;
  /** CSV: --delimiter (default: detected from the header line). */
  delimiter?: Delimiter | undefined;
  /** The header check and what columns are ignored or name the line (default: every column is a field). */
  columns?: ColumnRules | undefined;
  /** Counts the physical lines that are not items, as they are read. */
  tally?: InputTally | undefined;
  /** Ends the reading at once, even while it waits on a slow pipe: the lines simply end. */
  signal?: AbortSignal | undefined;
  /** How messages name the input (default: its path, or "-" for a stream). */
  name?: string | undefined;
}

export function readInput(source: InputSource, format: InputFormat, opts: ReadOptions): AsyncGenerator<InputLine[]> {
  const name = opts.name ?? (typeof source === 'string' ? source : '-');
  const lineBreak = { byte: 0x0a };
  const lines = splitLines(source, { csv: format === 'csv', signal: opts.signal, name, lineBreak });
  const tally = opts.tally ?? newTally();
  return format === 'csv' ? readCsv(lines, name, new CsvRecords(opts.delimiter, () => lineBreak.byte), opts.columns, tally) : readNdjson(lines, opts.bareIds, opts.columns, tally);
}

const TOO_LONG = `is too long (over ${MAX_LINE_BYTES / 1024 / 1024} MiB): skipped to its end`;
const NOT_UTF8 = 'is not valid UTF-8 text';

type Parsed = Pick<InputLine, 'record' | 'json' | 'problem' | 'identity'>;

/** A line that could not be read at all. */
function badLine(line: number, bytes: Buffer, problem: string): InputLine {
  return { line, bytes, record: undefined, json: false, problem };
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

async function* readNdjson(lines: AsyncIterable<RawLine[]>, bareIds: boolean, columns: ColumnRules | undefined, tally: InputTally): AsyncGenerator<InputLine[]> {
  for await (const raws of lines) {
    const batch: InputLine[] = [];
    tally.physical += raws.length;
    for (const raw of raws) {
      const item = ndjsonLine(raw, bareIds, columns);
      if (item !== undefined) batch.push(item);
      else tally.blank++;
    }
    if (batch.length > 0) yield batch;
  }
}

function ndjsonLine({ line, bytes }: RawLine, bareIds: boolean, columns: ColumnRules | undefined): InputLine | undefined {
  if (bytes === undefined) return badLine(line, Buffer.alloc(0), TOO_LONG);
  const read = lineText(bytes);
  if (read === undefined) return badLine(line, bytes, NOT_UTF8);
  const text = read.text.trim();
  if (text === '') return undefined;
  return new NdjsonLine(line, read.bytes, text, bareIds, columns);
}

/** Parsed only when asked: a line an earlier run confirmed is replayed from its bytes alone. */
class NdjsonLine implements InputLine {
  private parsed: Parsed | undefined;

  constructor(
    readonly line: number,
    readonly bytes: Buffer,
    private readonly text: string,
    private readonly bareIds: boolean,
    private readonly columns: ColumnRules | undefined,
  ) {}

  get identity(): string | undefined {
    return this.parse().identity;
  }

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
    this.parsed ??= withColumns(parseNdjson(this.text, this.bareIds), this.columns);
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

/** An NDJSON line under the column rules: its identity field taken out, ignored fields dropped. */
function withColumns(parsed: Parsed, columns: ColumnRules | undefined): Parsed {
  if (columns === undefined || parsed.record === undefined) return parsed;
  const { record, identity } = lineFields(parsed.record, columns);
  if (columns.idColumn === undefined) return { ...parsed, record };
  if ((typeof identity !== 'string' && typeof identity !== 'number') || String(identity).trim() === '') {
    return { record: undefined, json: false, problem: `has no "${columns.idColumn}" (the --id-column): each line needs its identity` };
  }
  return { ...parsed, record, identity: String(identity) };
}

interface CsvOptions {
  record_delimiter: '\n';
  relax_column_count: true;
  delimiter: string;
}

function csvOptions(delimiter: number): CsvOptions {
  return { record_delimiter: '\n', relax_column_count: true, delimiter: String.fromCharCode(delimiter) };
}

/** One CSV record's fields. */
function csvFields(text: string, options: CsvOptions): string[] {
  const records = parseCsv(text, options) as string[][];
  if (records.length !== 1) throw new CsvRecordError(`holds ${records.length} records`);
  return records[0] as string[];
}

/**
 * The fields of each record (already split by input-lines.ts), or why it is not CSV: the records
 * of a read are parsed with one call; when that fails, each alone, so a bad record is bad alone.
 */
function csvRecords(texts: readonly string[], options: CsvOptions): Array<string[] | CsvProblem> {
  if (texts.length > 1) {
    try {
      const records = parseCsv(texts.join('\n'), options) as string[][];
      if (records.length === texts.length) return records;
    } catch {
      // One of them is bad: found below.
    }
  }
  return texts.map((text) => {
    try {
      return csvFields(text, options);
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

/** A CSV file's header as read: its names, and what becomes of each column. */
interface Header {
  names: readonly string[];
  /** The field each column fills; undefined: ignored (or the identity column). */
  fields: ReadonlyArray<string | undefined>;
  /** The identity column's index. */
  id: number | undefined;
  options: CsvOptions;
}

type Entry = InputLine | { line: number; endLine: number; bytes: Buffer; text: string };

/**
 * The first non-blank record is the header (API field names); each later record is one line. A
 * header that cannot be read, or that names unknown columns, refuses the whole input before
 * anything is sent.
 */
async function* readCsv(lines: AsyncIterable<RawLine[]>, name: string, records: CsvRecords, columns: ColumnRules | undefined, tally: InputTally): AsyncGenerator<InputLine[]> {
  let header: Header | undefined;
  const entries = (out: readonly RawRecord[]): Entry[] => {
    const found: Entry[] = [];
    for (const record of out) {
      const span = record.endLine - record.line;
      tally.physical += span + 1;
      tally.continuation += span;
      if (header === undefined) {
        const names = csvHeader(record, name, csvOptions(records.separator ?? 0x2c));
        if (names === undefined) {
          tally.blank++;
          continue;
        }
        tally.header++;
        const { fields, id } = columns === undefined ? { fields: names, id: undefined } : headerColumns(names, columns, name);
        header = { names, fields, id, options: csvOptions(records.separator ?? 0x2c) };
      } else if (record.bytes === undefined) found.push(badLine(record.line, Buffer.alloc(0), TOO_LONG));
      else if (record.unclosed !== undefined) found.push(badLine(record.line, record.bytes, unclosedQuote(record.unclosed, header.names)));
      else {
        const read = lineText(record.bytes);
        if (read === undefined) found.push(badLine(record.line, record.bytes, NOT_UTF8));
        else if (read.text !== '') found.push({ line: record.line, endLine: record.endLine, ...read });
        else tally.blank++;
      }
    }
    return found;
  };
  const toLines = (found: Entry[]): InputLine[] => {
    const active = header as Header;
    const readable = found.filter((entry): entry is Exclude<Entry, InputLine> => 'text' in entry);
    const fields = csvRecords(
      readable.map((entry) => entry.text),
      active.options,
    );
    let next = 0;
    return found.map((entry) => ('text' in entry ? csvLine(entry, fields[next++] as string[] | CsvProblem, active) : entry));
  };
  for await (const raws of lines) {
    const out: RawRecord[] = [];
    for (const raw of raws) records.push(raw, out);
    const found = entries(out);
    if (found.length > 0) yield toLines(found);
  }
  const out: RawRecord[] = [];
  records.end(out);
  const found = entries(out);
  if (found.length > 0) yield toLines(found);
}

function unclosedQuote(field: number, names: readonly string[]): string {
  const column = names[field];
  return `is not valid CSV (the quote opened in column ${column === undefined ? field + 1 : `"${column}"`} is not closed on this line)`;
}

function csvHeader({ line, bytes, unclosed }: RawRecord, name: string, options: CsvOptions): readonly string[] | undefined {
  const refuse = (why: string): UsageError => new UsageError(`${name}:${line}: the CSV header ${why}; nothing was sent`, '--from', 'the first line of a CSV file names the API fields of its columns (e.g. courier,country,postal_code,number)');
  if (bytes === undefined) throw refuse(TOO_LONG.replace(': skipped to its end', ''));
  if (unclosed !== undefined) throw refuse(`is not valid CSV (the quote opened in its column ${unclosed + 1} is never closed)`);
  const read = lineText(bytes);
  if (read === undefined) throw refuse(NOT_UTF8);
  if (read.text === '') return undefined;
  let names: string[];
  try {
    names = csvFields(read.text, options);
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

function csvLine(entry: { line: number; endLine: number; bytes: Buffer }, fields: string[] | CsvProblem, header: Header): InputLine {
  const { line, endLine, bytes } = entry;
  const span = endLine === line ? {} : { endLine };
  if (!Array.isArray(fields)) return { ...badLine(line, bytes, fields.problem), ...span };
  if (fields.length !== header.names.length) return { ...badLine(line, bytes, `has ${fields.length} fields where the header has ${header.names.length}`), ...span };
  const record: Record<string, unknown> = {};
  header.fields.forEach((column, at) => {
    const cell = fields[at] as string;
    // Empty cells are absent fields; integer fields with only digits become numbers.
    if (column !== undefined && cell !== '') record[column] = INTEGER_FIELDS.has(column) && /^-?\d+$/.test(cell) ? Number(cell) : cell;
  });
  if (header.id === undefined) return { line, ...span, bytes, record, json: false };
  const identity = (fields[header.id] as string).trim();
  if (identity === '') return { ...badLine(line, bytes, `has no value in its --id-column column "${header.names[header.id] as string}": each line needs its identity`), ...span };
  return { line, ...span, bytes, record, json: false, identity };
}
