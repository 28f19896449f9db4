/**
 * Every byte a command prints goes through here. Data → stdout in the chosen format; messages,
 * hints and errors → stderr (STYLE.md, pattern 4). Machine formats carry the service's data
 * unchanged (only narrowed by --fields); human views go through formatCell.
 *
 * cli-table3 is loaded only for a TTY table (dynamic import of table.ts); JSON never loads it.
 */
import { styles } from './colour.js';
import { csvRow } from './csv.js';
import { isRecord } from '../schemas/record.js';
import { cellValue, columnsFor, flattenEntries, getPath, pickFields } from './fields.js';
import { formatCell } from './format.js';
import type { CodeNames, FormatContext } from './format.js';
import type { OutputFormat } from './output-format.js';
import { sanitize, sanitizeLines } from './sanitize.js';
import { shellQuote } from './shell.js';
import { batches, iteratorOf } from './batches.js';
import type { Source } from './batches.js';
import { isClosed, writeOut } from './streams.js';
import type { IO } from './streams.js';
import type * as TableModule from './table.js';
import { renderTsv, tsvLine } from './tsv.js';

export type { OutputFormat };

export interface RecordOptions {
  format: OutputFormat;
  fields?: string[];
  names?: CodeNames;
  /** Current time, Unix seconds (for "3m ago"). */
  now: number;
  /** A heading printed above the key/value view, on a TTY only. */
  title?: string;
  /**
   * For a list page printed whole (`{ parcels: [...], next_cursor }`): the key of the item array.
   * --fields then narrows each item and keeps the other keys (json/ndjson); a table/csv view
   * shows the items as a list, with the "more results" hint taken from `next_cursor`.
   */
  itemsKey?: string;
  /** With `itemsKey` in table view: passed on to renderList. */
  emptyMessage?: string;
  nextCommand?: string;
}

export interface ListOptions {
  format: OutputFormat;
  fields?: string[];
  names?: CodeNames;
  now: number;
  /** Cursor of the next page: on a TTY a dim hint on stderr tells how to get it. */
  nextCursor?: string | null;
  /** The command to repeat in that hint, e.g. `parcels list --status 2`. Default `parcels list`. */
  nextCommand?: string;
  /** Items arrive over time (`--all`): print as they come, in constant memory. */
  stream?: boolean;
  /** Printed on stderr for an empty table. Default "No results.". */
  emptyMessage?: string;
  /** Stream mode, table/csv: rows are flushed after this many items… Default 50. */
  batchSize?: number;
  /** …or once the source has been quiet this long with rows waiting. Default 100 ms. */
  flushAfterMs?: number;
}

export interface ErrorInfo {
  message: string;
  /** HTTP status, when the error is an answer from the service. */
  status?: number;
  code: string;
  exitCode: number;
  hint?: string;
  field?: string;
  details?: { field: string; message: string }[];
}

function formatContext(io: IO, opts: { names?: CodeNames; now: number }): FormatContext {
  return { names: opts.names, now: opts.now, colour: io.colour, tty: io.stdoutIsTTY };
}

/** A single object (or any JSON value) from the service. */
export async function renderRecord(io: IO, data: unknown, opts: RecordOptions): Promise<void> {
  const { fields } = opts;
  if (opts.itemsKey !== undefined && isRecord(data) && Array.isArray(data[opts.itemsKey])) {
    const items = data[opts.itemsKey] as unknown[];
    if (opts.format === 'json' || opts.format === 'ndjson') {
      const narrowed = { ...data, [opts.itemsKey]: pickFields(items, fields) };
      await writeOut(io.stdout, json(narrowed, opts.format) + '\n');
      return;
    }
    const next = data.next_cursor;
    await renderList(io, items, {
      format: opts.format,
      fields,
      names: opts.names,
      now: opts.now,
      nextCursor: typeof next === 'string' ? next : null,
      nextCommand: opts.nextCommand,
      emptyMessage: opts.emptyMessage,
    });
    return;
  }
  const picked = pickFields(data, fields);
  switch (opts.format) {
    case 'json':
    case 'ndjson':
      await writeOut(io.stdout, json(picked, opts.format) + '\n');
      return;
    case 'csv': {
      const columns = isRecord(data) ? columnsFor([data], fields) : ['value'];
      await writeOut(io.stdout, csvRow(columns) + csvRow(columns.map((c) => cellValue(data, c))));
      return;
    }
    case 'table':
      if (Array.isArray(data)) {
        await renderList(io, data, { format: 'table', fields, names: opts.names, now: opts.now, emptyMessage: opts.emptyMessage });
        return;
      }
      await writeOut(io.stdout, keyValueView(io, data, opts));
      return;
  }
}

function json(value: unknown, format: 'json' | 'ndjson'): string {
  return jsonText(value, format === 'json' ? 2 : undefined);
}

// JSON.stringify escapes C0 controls but leaves DEL and the C1 controls (e.g. U+009B, a CSI) raw.
const UNESCAPED_CONTROL = /[\u007f-\u009f]/g;

/** JSON text that parses to exactly `value`, with every control character escaped so a terminal shows it inert. */
function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  return text.replace(UNESCAPED_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function keyValueView(io: IO, data: unknown, opts: RecordOptions): string {
  const ctx = formatContext(io, opts);
  const s = styles(io.colour);
  if (!isRecord(data)) return formatCell('value', data, ctx) + '\n';
  const entries: [string, unknown][] =
    opts.fields && opts.fields.length > 0
      ? opts.fields.map((f) => [f, getPath(data, f)])
      : flattenEntries(data);
  if (!io.stdoutIsTTY) {
    return entries.map(([key, value]) => tsvLine([key, formatCell(key, value, ctx)])).join('');
  }
  const width = Math.max(0, ...entries.map(([key]) => sanitize(key).length));
  let out = opts.title ? s.bold(sanitize(opts.title)) + '\n' : '';
  for (const [key, value] of entries) {
    out += `${s.bold(sanitize(key).padEnd(width))}  ${formatCell(key, value, ctx)}`.replace(/\s+$/u, '') + '\n';
  }
  return out;
}

/**
 * A list of items. Single page (`stream` false): collected, then printed. Stream (`--all`):
 * printed as items arrive — json as one valid array written item by item, ndjson a line per
 * item, csv/table rows in batches (columns decided by the first batch). Every chunk waits for
 * the stream to drain; a closed pipe stops the source early.
 */
export async function renderList(io: IO, items: Source, opts: ListOptions): Promise<{ count: number }> {
  const { fields } = opts;
  let count = 0;
  if (opts.format === 'json' || opts.format === 'ndjson') {
    const isJson = opts.format === 'json';
    const it = iteratorOf(items);
    let done = false;
    try {
      for (;;) {
        const result = await it.next();
        if (result.done) {
          done = true;
          break;
        }
        const line = jsonText(pickFields(result.value, fields));
        await writeOut(io.stdout, isJson ? (count === 0 ? '[\n' : ',\n') + line : line + '\n');
        count++;
        if (isClosed(io.stdout)) break;
      }
    } finally {
      if (!done) await it.return?.();
    }
    if (isJson) await writeOut(io.stdout, count === 0 ? '[]\n' : '\n]\n');
    return { count };
  }

  const ctx = formatContext(io, opts);
  const size = opts.stream ? (opts.batchSize ?? 50) : Number.POSITIVE_INFINITY;
  const idleMs = opts.stream ? (opts.flushAfterMs ?? 100) : Number.POSITIVE_INFINITY;
  let columns: string[] | undefined;
  let widths: number[] | undefined;
  let table: typeof TableModule | undefined;
  let hidden: string[] = [];
  const source: AsyncIterable<unknown[]> = opts.stream
    ? batches(items, size, idleMs)
    : (async function* () {
        const all: unknown[] = [];
        for await (const item of items) all.push(item);
        if (all.length > 0) yield all;
      })();

  for await (const batch of source) {
    const first = columns === undefined;
    columns ??= columnsFor(batch, fields);
    const cols = columns;
    let chunk: string;
    if (opts.format === 'csv') {
      chunk = (first ? csvRow(cols) : '') + batch.map((item) => csvRow(cols.map((c) => cellValue(item, c)))).join('');
    } else {
      let rows = batch.map((item) => cols.map((c) => formatCell(c, cellValue(item, c), ctx)));
      if (first && io.stdoutIsTTY && !fields && opts.format === 'table') {
        table ??= await import('./table.js');
        const kept = table.fitColumns(cols, rows, io.columns);
        if (kept.length < cols.length) {
          // Name only the left-out columns that hold something; empty ones are simply dropped.
          hidden = cols.filter((_, i) => !kept.includes(i) && rows.some((row) => (row[i] ?? '').trim() !== '' && row[i] !== '-'));
          columns = kept.map((i) => cols[i] as string);
          rows = rows.map((row) => kept.map((i) => row[i] ?? ''));
        }
      }
      if (!io.stdoutIsTTY) {
        chunk = first ? renderTsv(cols, rows) : renderTsv([], rows);
      } else {
        table ??= await import('./table.js');
        if (opts.stream) widths ??= table.columnWidths(columns, rows, io.columns);
        chunk = table.renderTable(columns, rows, {
          tty: true,
          colour: io.colour,
          columns: io.columns,
          widths,
          header: first,
        });
      }
    }
    count += batch.length;
    await writeOut(io.stdout, chunk);
    if (isClosed(io.stdout)) break;
  }

  if (count === 0) {
    if (opts.format === 'csv') {
      if (fields && fields.length > 0) await writeOut(io.stdout, csvRow(columnsFor([], fields)));
    } else {
      await writeOut(io.stderr, `${sanitizeLines(opts.emptyMessage ?? 'No results.')}\n`);
    }
    return { count };
  }
  if (hidden.length > 0) {
    const s = styles(io.stderrColour);
    const names = sanitize(hidden.join(','));
    await writeOut(io.stderr, s.dim(`Not shown for width: ${names} (pick columns with --fields, or use --output json)`) + '\n');
  }
  if (opts.format === 'table' && !opts.stream && opts.nextCursor && io.stdoutIsTTY) {
    const s = styles(io.stderrColour);
    const command = opts.nextCommand ?? 'parcels list';
    await writeOut(io.stderr, s.dim(`More results: ${command} --cursor ${shellQuote(sanitize(opts.nextCursor))}  (or --all)`) + '\n');
  }
  return { count };
}

/** An error, always on stderr: one JSON line for json/ndjson, a human block otherwise. */
export async function renderError(io: IO, err: ErrorInfo, opts: { format: OutputFormat }): Promise<void> {
  if (opts.format === 'json' || opts.format === 'ndjson') {
    const body: Record<string, unknown> = {
      status: err.status ?? null,
      code: err.code,
      message: err.message,
      exit_code: err.exitCode,
    };
    if (err.field !== undefined) body.field = err.field;
    if (err.details && err.details.length > 0) body.details = err.details;
    if (err.hint !== undefined) body.hint = err.hint;
    await writeOut(io.stderr, jsonText({ error: body }) + '\n');
    return;
  }
  const s = styles(io.stderrColour);
  const message = sanitize(err.message);
  const withField =
    err.field !== undefined && !message.includes(err.field) ? `${sanitize(err.field)}: ${message}` : message;
  let out = `${s.red(s.bold('Error:'))} ${withField}\n`;
  for (const d of err.details ?? []) out += `  - ${sanitize(d.field)}: ${sanitize(d.message)}\n`;
  if (err.hint) out += s.dim(`Hint: ${sanitize(err.hint)}`) + '\n';
  await writeOut(io.stderr, out);
}

export type MessageKind = 'info' | 'success' | 'warn';

/** Human feedback on stderr: `✓ Created parcel …` (success), `! …` (warn), plain (info). Server text in it is sanitised here. */
export async function renderMessage(io: IO, text: string, kind: MessageKind = 'info'): Promise<void> {
  const s = styles(io.stderrColour);
  const prefix = kind === 'success' ? s.green('✓') + ' ' : kind === 'warn' ? s.yellow('!') + ' ' : '';
  await writeOut(io.stderr, `${prefix}${sanitizeLines(text)}\n`);
}

/** A bare value on stdout for scripts (`create --quiet` prints the new id), sanitised like any server text. */
export async function renderLine(io: IO, text: string): Promise<void> {
  await writeOut(io.stdout, `${sanitize(text)}\n`);
}

/** A section heading on stdout, between the tables of a multi-part view (bold on a terminal). */
export async function renderHeading(io: IO, text: string, first: boolean): Promise<void> {
  const s = styles(io.colour);
  await writeOut(io.stdout, `${first ? '' : '\n'}${s.bold(sanitize(text))}\n`);
}
