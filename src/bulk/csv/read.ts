import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';
import type { InputLine, InputTally } from '../input-line.js';
import { badLine, INTEGER_FIELDS, lineText, NOT_UTF8, TOO_LONG } from '../input-line.js';
import type { RawLine } from '../input-lines.js';
import type { ColumnRules } from './columns.js';
import { headerColumns } from './columns.js';
import type { CsvRecords, RawRecord } from './records.js';

/** CSV input: records (csv/records.ts) → their header checked → one InputLine per record. */

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
 * The fields of each record (already gathered by csv/records.ts), or why it is not CSV: the records
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
export async function* readCsv(lines: AsyncIterable<RawLine[]>, name: string, records: CsvRecords, columns: ColumnRules | undefined, tally: InputTally, onHeader?: (fields: ReadonlyArray<string | undefined>) => void): AsyncGenerator<InputLine[]> {
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
        onHeader?.(fields);
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
