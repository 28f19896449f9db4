import { parse as parseCsv } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { UsageError } from '../errors.js';
import { UUID_PATTERN } from '../schemas/parcel-id.js';
import type { InputFormat } from './input-format.js';

/**
 * Reads bulk input as a stream, one item per non-empty line (NDJSON) or record (CSV), handed on in
 * batches (the lines of one read chunk) so the engine can journal them with one write; never the
 * whole file at once.
 */

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line where the record starts). */
  readonly line: number;
  /** The line's exact bytes, without its line terminator. */
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
  'parcel_length', 'parcel_width', 'parcel_height', 'parcel_weight', 'time_slot_period_start', 'time_slot_period_end',
  'service_type', 'status', 'occurred_at', 'time_attempt', 'outcome', 'reason', 'attempt_no', 'delivered_location_type',
]);

export interface ReadOptions {
  /** A line that is only a UUID stands for `{"entry_id": …}` (events and attempts). */
  bareIds: boolean;
}

/** A file path, or an open stream (e.g. standard input given with a batch id). */
export type InputSource = string | NodeJS.ReadableStream;

export function readInput(source: InputSource, format: InputFormat, opts: ReadOptions): AsyncGenerator<InputLine[]> {
  return format === 'csv' ? readCsv(source) : readNdjson(source, opts);
}

function open(source: InputSource): NodeJS.ReadableStream {
  return typeof source === 'string' ? createReadStream(source, { highWaterMark: 64 * 1024 }) : source;
}

async function* readNdjson(source: InputSource, opts: ReadOptions): AsyncGenerator<InputLine[]> {
  let rest: Buffer = Buffer.alloc(0);
  let line = 0;
  for await (const chunk of open(source)) {
    const data = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    const batch: InputLine[] = [];
    let start = 0;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a, start)) {
      line++;
      const item = ndjsonLine(line, data.subarray(start, newline), opts);
      if (item !== undefined) batch.push(item);
      start = newline + 1;
    }
    rest = Buffer.from(data.subarray(start));
    if (batch.length > 0) yield batch;
  }
  if (rest.length > 0) {
    const item = ndjsonLine(line + 1, rest, opts);
    if (item !== undefined) yield [item];
  }
}

function ndjsonLine(line: number, raw: Buffer, opts: ReadOptions): InputLine | undefined {
  let end = raw.length;
  if (end > 0 && raw[end - 1] === 0x0d) end--;
  let start = 0;
  if (line === 1 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) start = 3;
  // A copy: a subarray would keep the whole 64 KiB read chunk alive while the line waits.
  const bytes = Buffer.from(raw.subarray(start, end));
  let text: string;
  try {
    text = utf8.decode(bytes).trim();
  } catch {
    return { line, bytes, record: undefined, json: false, problem: 'is not valid UTF-8 text' };
  }
  if (text === '') return undefined;
  return new NdjsonLine(line, bytes, text, opts.bareIds);
}

/** Parsed only when asked: a line an earlier run confirmed is replayed from its bytes alone. */
class NdjsonLine implements InputLine {
  private parsed: Pick<InputLine, 'record' | 'json' | 'problem'> | undefined;

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

  private parse(): Pick<InputLine, 'record' | 'json' | 'problem'> {
    this.parsed ??= parseNdjson(this.text, this.bareIds);
    return this.parsed;
  }
}

function parseNdjson(text: string, bareIds: boolean): Pick<InputLine, 'record' | 'json' | 'problem'> {
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

interface CsvRow {
  record: Record<string, string>;
  raw: string;
  info: { lines: number };
}

async function* readCsv(source: InputSource): AsyncGenerator<InputLine[]> {
  const name = typeof source === 'string' ? source : '-';
  const parser = open(source).pipe(parseCsv({ columns: true, raw: true, info: true, bom: true, skip_empty_lines: true }));
  try {
    for await (const row of parser as AsyncIterable<CsvRow>) {
      const raw = row.raw.replace(/\r?\n?$/, '').replace(/\r$/, '');
      const startLine = row.info.lines - (raw.match(/\n/g)?.length ?? 0);
      yield [{ line: startLine, bytes: Buffer.from(raw), record: csvRecord(row.record), json: false }];
    }
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new UsageError(`${name}${lines === undefined ? '' : `:${lines}`}: not valid CSV (${(error as Error).message})`);
  }
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
