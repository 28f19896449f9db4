/**
 * Every byte a command prints goes through here. Data → stdout in the chosen format; messages,
 * hints and errors → stderr (STYLE.md, pattern 4). Machine formats carry the service's data
 * unchanged (only narrowed by --fields); human views go through formatCell.
 *
 * table.ts (and string-width) is loaded only for a TTY table (dynamic import); JSON never loads it.
 */
import { UsageError } from '../errors.js';
import { styles } from './colour.js';
import { csvCell, csvRow } from './csv.js';
import { isRecord } from '../schemas/record.js';
import { cellValue, columnsFor, flattenEntries, getPath, pickFields } from './fields.js';
import { formatCell, formatContext, withUnit } from './format.js';
import { present } from './views/column.js';
import type { CodeNames, FormatContext } from './format.js';
import { jsonText } from './json.js';
import { renderList } from './list.js';
import type { ListOptions } from './list.js';
import type { OutputFormat } from './output-format.js';
import { sanitize, sanitizeLines } from './sanitize.js';
import { writeOut } from './streams.js';
import type { IO } from './streams.js';
import { tsvLine } from './tsv.js';
import type { ViewName } from './views/resources.js';

export type { OutputFormat, ListOptions };
export { renderList };

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
  view?: ViewName;
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
  /** What the user probably meant (a flag, a command, a name): a field of its own in JSON, a hint otherwise. */
  suggestion?: string;
}

/** A record holding lists (an overview): one CSV row or NDJSON line would drop or blur them. */
export function holdsLists(data: unknown): boolean {
  if (!isRecord(data)) return false;
  return Object.values(data).some((value) => Array.isArray(value) || holdsLists(value));
}

/** `-o csv` / `-o ndjson` for a record with lists: stop before printing part of it (kubectl does the same). */
export function refuseListsInRows(data: unknown, format: OutputFormat): void {
  if ((format === 'csv' || format === 'ndjson') && holdsLists(data)) {
    throw new UsageError(
      `--output ${format} prints a list, but this answer is a record holding several lists; use --json (or -o table)`,
      '--output',
    );
  }
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
      view: opts.view,
      nextCursor: typeof next === 'string' ? next : null,
      nextCommand: opts.nextCommand,
      emptyMessage: opts.emptyMessage,
    });
    return;
  }
  refuseListsInRows(data, opts.format);
  const picked = pickFields(data, fields);
  switch (opts.format) {
    case 'json':
    case 'ndjson':
      await writeOut(io.stdout, json(picked, opts.format) + '\n');
      return;
    case 'csv': {
      const columns = isRecord(data) ? columnsFor([data], fields) : ['value'];
      const csv = { terminal: io.stdoutIsTTY };
      await writeOut(io.stdout, csvRow(columns, csv) + csvRow(columns.map((c) => csvCell(c, cellValue(data, c))), csv));
      return;
    }
    case 'table':
    case 'wide':
      if (Array.isArray(data)) {
        await renderList(io, data, { format: opts.format, fields, names: opts.names, now: opts.now, view: opts.view, emptyMessage: opts.emptyMessage });
        return;
      }
      await writeOut(io.stdout, keyValueView(io, data, opts));
      return;
  }
}

function json(value: unknown, format: 'json' | 'ndjson'): string {
  return jsonText(value, format === 'json' ? 2 : undefined);
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
    return entries.flatMap(([key, value]) => (itemLines(key, value, ctx) ?? [formatCell(key, value, ctx)]).map((cell) => tsvLine([key, cell]))).join('');
  }
  // A person's terminal leaves out what is empty, unless asked for by name (--fields) or wide: a record of what it holds.
  const shown = ctx.compact === true && !(opts.fields && opts.fields.length > 0) ? entries.filter(([, value]) => present(value)) : entries;
  const width = Math.max(0, ...shown.map(([key]) => sanitize(key).length));
  let out = opts.title ? s.bold(sanitize(opts.title)) + '\n' : '';
  for (const [key, value] of shown) {
    const lines = itemLines(key, value, ctx) ?? [withUnit(key, value, formatCell(key, value, ctx))];
    lines.forEach((line, i) => {
      // A list's later lines stand under its first, the key said once.
      out += `${s.bold((i === 0 ? sanitize(key) : '').padEnd(width))}  ${line}`.replace(/\s+$/u, '') + '\n';
    });
  }
  return out;
}

/**
 * A list of flat records inside a record (validate-address's `issues: [{field, message}]`) read as
 * one line per item, its values joined by ": " (`postal_code: must be a Dutch postcode…`), not as a
 * JSON blob; undefined for any other value.
 */
function itemLines(key: string, value: unknown, ctx: FormatContext): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every((item) => isRecord(item) && Object.values(item).every((v) => v === null || typeof v !== 'object'))) return undefined;
  return value.map((item) => Object.entries(item as Record<string, unknown>).map(([name, v]) => formatCell(`${key}.${name}`, v, ctx)).join(': '));
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
    if (err.suggestion !== undefined) body.suggestion = err.suggestion;
    await writeOut(io.stderr, jsonText({ error: body }) + '\n');
    return;
  }
  const s = styles(io.stderrColour);
  const message = sanitize(err.message);
  const withField =
    err.field !== undefined && !message.includes(err.field) ? `${sanitize(err.field)}: ${message}` : message;
  let out = `${s.red(s.bold('Error:'))} ${withField}\n`;
  for (const d of err.details ?? []) out += `  - ${sanitize(d.field)}: ${sanitize(d.message)}\n`;
  const hint = err.suggestion === undefined ? err.hint : `did you mean ${err.suggestion}?${err.hint ? `; ${err.hint}` : ''}`;
  if (hint) out += s.dim(`Hint: ${sanitize(hint)}`) + '\n';
  await writeOut(io.stderr, out);
}

export type MessageKind = 'info' | 'success' | 'warn';

/** Human feedback on stderr: `✓ Created parcel …` (success), `! …` (warn), plain (info). Server text in it is sanitised here. */
export async function renderMessage(io: IO, text: string, kind: MessageKind = 'info'): Promise<void> {
  const s = styles(io.stderrColour);
  const prefix = kind === 'success' ? s.green('✓') + ' ' : kind === 'warn' ? s.yellow('!') + ' ' : '';
  await writeOut(io.stderr, `${prefix}${sanitizeLines(text)}\n`);
}

/**
 * One line of a --verbose trace on stderr. It quotes response headers and bodies, which a server
 * controls: C0/C1 controls in them (a raw U+009B is a CSI) are removed like in any server text.
 */
export function renderTrace(io: IO, line: string): void {
  void writeOut(io.stderr, `${sanitize(line)}\n`);
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
