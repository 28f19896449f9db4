import { readJsonLine } from '../schemas/json-line.js';
import type { InputFormat } from './input-format.js';
import type { InputSource, RawLine } from './input-lines.js';
import { splitLines } from './input-lines.js';
import type { ColumnRules } from './csv/columns.js';
import { lineFields } from './csv/columns.js';
import type { Delimiter } from './csv/delimiter.js';
import { CsvRecords } from './csv/records.js';
import { readCsv } from './csv/read.js';
import type { InputLine, InputTally } from './input-line.js';
import { badLine, lineText, newTally, NOT_UTF8, TOO_LONG } from './input-line.js';

export type { InputLine, InputTally } from './input-line.js';
export { newTally } from './input-line.js';

export type { InputSource } from './input-lines.js';

/**
 * Reads bulk input as a stream, one item per non-empty line (NDJSON) or record (CSV), handed on in
 * batches (the lines of one read chunk) so the engine can journal them with one write; never the
 * whole file at once. A line that cannot be read (not UTF-8, not JSON, not CSV, a ragged CSV row,
 * a stray quote, over 1 MiB) is one item with a `problem`; only a problem of the CSV header (an
 * unknown column included), or a NUL byte (see input-lines.ts), stops the reading. Every physical
 * line read is one item or counted in the tally (header, blank, continuation of a record).
 */

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
  /** CSV: told the fields its columns hold (undefined: ignored or the identity), once the header is read. */
  onHeader?: ((fields: ReadonlyArray<string | undefined>) => void) | undefined;
}

export function readInput(source: InputSource, format: InputFormat, opts: ReadOptions): AsyncGenerator<InputLine[]> {
  const name = opts.name ?? (typeof source === 'string' ? source : '-');
  const lineBreak = { byte: 0x0a };
  const lines = splitLines(source, { csv: format === 'csv', signal: opts.signal, name, lineBreak });
  const tally = opts.tally ?? newTally();
  return format === 'csv' ? readCsv(lines, name, new CsvRecords(opts.delimiter, () => lineBreak.byte), opts.columns, tally, opts.onHeader) : readNdjson(lines, opts.bareIds, opts.columns, tally);
}

type Parsed = Pick<InputLine, 'record' | 'json' | 'problem' | 'identity'>;

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
    this.parsed ??= withColumns(readJsonLine(this.text, this.bareIds), this.columns);
    return this.parsed;
  }
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
