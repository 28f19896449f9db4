/**
 * Lists: a page printed whole, or `--all` streamed as items arrive. Machine formats carry the
 * items unchanged (narrowed by --fields); a table on a terminal shows the resource's view
 * (views/), piped it is tab-separated with every field, so scripts see a stable shape.
 */
import { UsageError } from '../errors.js';
import { styles } from './colour.js';
import { csvCell, csvRow } from './csv.js';
import { cellValue, columnsFor, fieldPaths, pickFields, unknownFields } from './fields.js';
import { formatCell, formatContext } from './format.js';
import type { CodeNames, FormatContext } from './format.js';
import { jsonText } from './json.js';
import type { OutputFormat } from './output-format.js';
import { closest } from '../schemas/did-you-mean.js';
import { sanitize, sanitizeLines } from './sanitize.js';
import { shellQuote } from '../hint/shell.js';
import { batches, iteratorOf } from './batches.js';
import type { Source } from './batches.js';
import { isClosed, writeOut } from './streams.js';
import type { IO } from './streams.js';
import type * as TableModule from './table.js';
import { renderTsv } from './tsv.js';
import type { Column } from './views/column.js';
import { chooseLayout } from './views/layout.js';
import type { FitMode } from './views/layout.js';
import type { ViewName } from './views/resources.js';
import type { ShortId } from './short-ids.js';

export interface ListOptions {
  format: OutputFormat;
  fields?: string[];
  names?: CodeNames;
  now: number;
  /** The resource, for its default view on a terminal. */
  view?: ViewName;
  /** How parcel ids are shown on a terminal's table (src/io/short-ids.ts); default whole. */
  shortId?: ShortId;
  /** A child list's parent id: not repeated in every row. */
  parentId?: string;
  /** Cursor of the next page: a hint on stderr tells how to get it (TTY tables, ndjson, csv). */
  nextCursor?: string | null;
  /** The command to repeat in that hint, as the user typed it. Default `parcels list`. */
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

/** --fields naming a field no item has: exit 2 with the fields the response does have. */
export function assertKnownFields(items: unknown[], fields: string[] | undefined): void {
  const unknown = unknownFields(items, fields);
  if (unknown.length === 0) return;
  const names = unknown.map((f) => `"${sanitize(f)}"`).join(', ');
  const paths = fieldPaths(items);
  const known = paths.map(sanitize).join(', ');
  const suggestion = closest(unknown[0] as string, paths);
  throw new UsageError(
    `--fields: unknown field${unknown.length > 1 ? 's' : ''} ${names}; the response has: ${known}${suggestion === undefined ? '' : `; did you mean ${sanitize(suggestion)}?`}`,
    '--fields',
  );
}

/**
 * A list of items. Single page (`stream` false): collected, then printed. Stream (`--all`):
 * printed as items arrive — json as one valid array written item by item, ndjson a line per
 * item, csv/table rows in batches (columns decided by the first batch). Every chunk waits for
 * the stream to drain; a closed pipe stops the source early.
 */
export async function renderList(io: IO, items: Source, opts: ListOptions): Promise<{ count: number }> {
  const count = opts.format === 'json' || opts.format === 'ndjson' ? await renderJsonItems(io, items, opts) : await renderRows(io, items, opts);
  if (count > 0 && opts.nextCursor && !opts.stream && hintWanted(opts.format)) {
    const s = styles(io.stderrColour);
    const command = opts.nextCommand ?? 'parcels list';
    await writeOut(io.stderr, s.dim(`More results: ${command} --cursor ${shellQuote(sanitize(opts.nextCursor))}  (or --all)`) + '\n');
  }
  return { count };
}

/** The next-page hint wherever the output alone does not say there is more: every format but JSON (its page holds next_cursor). */
function hintWanted(format: OutputFormat): boolean {
  return format !== 'json';
}

async function renderJsonItems(io: IO, items: Source, opts: ListOptions): Promise<number> {
  const isJson = opts.format === 'json';
  const it = iteratorOf(items);
  let count = 0;
  let done = false;
  try {
    for (;;) {
      const result = await it.next();
      if (result.done) {
        done = true;
        break;
      }
      const line = jsonText(pickFields(result.value, opts.fields));
      await writeOut(io.stdout, isJson ? (count === 0 ? '[\n' : ',\n') + line : line + '\n');
      count++;
      if (isClosed(io.stdout)) break;
    }
  } finally {
    if (!done) await it.return?.();
  }
  if (isJson) await writeOut(io.stdout, count === 0 ? '[]\n' : '\n]\n');
  return count;
}

interface TtyTable {
  columns: Column[];
  widths: number[];
  text: boolean[];
  module: typeof TableModule;
}

async function renderRows(io: IO, items: Source, opts: ListOptions): Promise<number> {
  const { fields } = opts;
  const ctx = formatContext(io, opts);
  const size = opts.stream ? (opts.batchSize ?? 50) : Number.POSITIVE_INFINITY;
  const idleMs = opts.stream ? (opts.flushAfterMs ?? 100) : Number.POSITIVE_INFINITY;
  const tty = io.stdoutIsTTY && opts.format !== 'csv';
  let plainColumns: string[] | undefined;
  let table: TtyTable | undefined;
  let hidden: string[] = [];
  let count = 0;
  const source: AsyncIterable<unknown[]> = opts.stream
    ? batches(items, size, idleMs)
    : (async function* () {
        const all: unknown[] = [];
        for await (const item of items) all.push(item);
        if (all.length > 0) yield all;
      })();

  for await (const batch of source) {
    const first = count === 0;
    let chunk: string;
    if (tty) {
      // The first batch decides the columns and their widths; a stream's later batches line up under it.
      if (table === undefined) {
        const layout = chooseLayout(batch, { fields, view: opts.view, wide: opts.format === 'wide', parentId: opts.parentId });
        table = await fitToTerminal(io, layout.columns, batch, ctx, layout.fit);
        hidden = layout.columns.filter((c) => !table?.columns.includes(c)).map((c) => c.header);
      }
      const { columns, module, widths, text } = table;
      const rows = batch.map((item) => columns.map((c) => c.cell(item, ctx)));
      chunk = module.renderTable(
        columns.map((c) => c.header),
        rows,
        { tty: true, colour: io.colour, widths, text, header: first },
      );
    } else {
      plainColumns ??= columnsFor(batch, fields);
      const cols = plainColumns;
      const csv = { terminal: io.stdoutIsTTY };
      chunk =
        opts.format === 'csv'
          ? (first ? csvRow(cols, csv) : '') + batch.map((item) => csvRow(cols.map((c) => csvCell(c, cellValue(item, c))), csv)).join('')
          : renderTsv(first ? cols : [], batch.map((item) => cols.map((c) => formatCell(c, cellValue(item, c), ctx))));
    }
    count += batch.length;
    await writeOut(io.stdout, chunk);
    if (isClosed(io.stdout)) break;
  }

  if (count === 0) {
    if (opts.format === 'csv') {
      if (fields && fields.length > 0) await writeOut(io.stdout, csvRow(columnsFor([], fields), { terminal: io.stdoutIsTTY }));
    } else {
      await writeOut(io.stderr, `${sanitizeLines(opts.emptyMessage ?? 'No results.')}\n`);
    }
    return count;
  }
  await reportLeftOut(io, hidden);
  return count;
}

/** The one line every table and timeline prints on stderr when the terminal's width left columns out. */
export async function reportLeftOut(io: IO, headers: readonly string[]): Promise<void> {
  if (headers.length === 0) return;
  const s = styles(io.stderrColour);
  const names = sanitize(headers.join(', '));
  await writeOut(io.stderr, s.dim(`Not shown at ${io.columns} columns: ${names} (widen the terminal, or use -o wide or --json)`) + '\n');
}

/** The columns that fit the terminal (by the first rows' natural widths) and their widths: table.ts `fitTable`. */
async function fitToTerminal(io: IO, columns: Column[], sample: unknown[], ctx: FormatContext, fit: FitMode): Promise<TtyTable> {
  const module = await import('./table.js');
  const rows = sample.map((item) => columns.map((c) => c.cell(item, ctx)));
  const natural = module.naturalWidths(
    columns.map((c) => c.header),
    rows,
  );
  const text = columns.map((c) => c.text === true);
  if (fit === 'none') return { columns, widths: natural, text: text.map(() => false), module };
  const fits = columns.map((c, i) => ({ priority: c.priority ?? (c.id ? Number.POSITIVE_INFINITY : -i), text: c.text === true }));
  const { kept, widths } = module.fitTable(natural, fits, io.columns);
  return { columns: kept.map((i) => columns[i] as Column), widths, text: kept.map((i) => text[i] as boolean), module };
}
