/**
 * How a parcel's timeline looks to a person: one line per entry with its time, age, what happened
 * (status or outcome name), the reason and the delivered address. On a terminal an aligned table,
 * piped tab-separated rows (table.ts's two forms). Machine formats print `entryJson` instead.
 */
import type { TimelineEntry } from '../schemas/timeline.js';
import { isRecord } from '../schemas/record.js';
import { isDelivery, latestEntry } from '../schemas/timeline.js';
import { styles } from '../io/colour.js';
import type { CodeNames, FormatContext } from '../io/format.js';
import { formatCell, formatContext, outcomeStyle, timeCell } from '../io/format.js';
import { reportLeftOut } from '../io/list.js';
import type { OutputFormat } from '../io/output-format.js';
import type { ShortId } from '../io/short-ids.js';
import { ID_PREFIX_MIN } from '../schemas/parcel-id.js';
import type { ColumnFit } from '../io/table.js';
import { relativeTime, timeText } from '../schemas/time-text.js';
import { renderHeading, renderRecord } from '../io/render.js';
import { sanitize } from '../io/sanitize.js';
import { writeOut } from '../io/streams.js';
import type { IO } from '../io/streams.js';
import { renderTsv } from '../io/tsv.js';

export interface TimelineViewOptions {
  names?: CodeNames;
  /** Current time, Unix seconds (for the age column). */
  now: number;
  /** The user's format (`wide`: whole ids, times and codes on a terminal too); default `table`. */
  format?: OutputFormat;
  /** How parcel ids are shown on a terminal's table (src/io/short-ids.ts); default whole. */
  shortId?: ShortId;
  /** A terminal's default table: `latest` says codes by name alone, as the other cells do (stateItem). */
  compact?: boolean;
}

/** One line of a timeline; `id` names the parcel when several are followed at once. */
export interface TimelineLine {
  id?: string;
  entry: TimelineEntry;
}

export const TIMELINE_COLUMNS = ['time', 'age', 'entry', 'state', 'reason', 'delivered'];
/** The age is for a person at a terminal: piped, a timeline's times stay absolute (scripts read `time`). */
const AGE_COLUMN = TIMELINE_COLUMNS.indexOf('age');

function textField(record: Record<string, unknown>, name: string): string {
  const value = record[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** `Dorpsstraat 12 A, 1234AB Utrecht, NL` from a delivered-address group; "" when there is none. */
export function deliveredAddress(value: unknown): string {
  if (!isRecord(value)) return '';
  const house = [textField(value, 'delivered_number'), textField(value, 'delivered_addition')].filter(Boolean).join(' ');
  const street = [textField(value, 'delivered_street'), house].filter(Boolean).join(' ');
  const place = [textField(value, 'delivered_postal_code'), textField(value, 'delivered_city')].filter(Boolean).join(' ');
  return sanitize([street, place, textField(value, 'delivered_country')].filter(Boolean).join(', '));
}

function integer(record: Record<string, unknown>, name: string): number | undefined {
  const value = record[name];
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** `event` or `attempt 2` (with the number the service assigned, when it echoes one). */
function entryLabel(entry: TimelineEntry): string {
  if (entry.kind === 'event' || !isRecord(entry.record)) return entry.kind;
  const number = integer(entry.record, 'attempt_no');
  return number === undefined ? 'attempt' : `attempt ${number}`;
}

/** The cells of one entry, in TIMELINE_COLUMNS order; on a colour terminal an attempt reads green when it delivered, red when it failed or was refused. */
export function timelineCells(entry: TimelineEntry, ctx: FormatContext): string[] {
  const s = styles(ctx.colour);
  const record = entry.record;
  if (entry.at === null || !isRecord(record)) {
    // Shown generically: the record itself, whatever it holds.
    return ['', '', entry.kind, sanitize(JSON.stringify(record) ?? ''), '', ''];
  }
  const age = relativeTime(entry.at, ctx.now);
  // The age has a column of its own, so the time is shown without it.
  const time = timeCell(entry.at, ctx);
  if (entry.kind === 'event') {
    return [time, ctx.tty ? s.dim(age) : age, entryLabel(entry), formatCell('status', record.status, ctx), '', ''];
  }
  const reason = integer(record, 'reason');
  const outcome = integer(record, 'outcome');
  const style = outcome === undefined ? (text: string) => text : outcomeStyle(outcome, s);
  return [
    time,
    ctx.tty ? s.dim(age) : age,
    style(entryLabel(entry)),
    style(formatCell('outcome', record.outcome, ctx)),
    // Reason 0 means "no reason": an empty cell says the same.
    reason === undefined || reason === 0 ? '' : formatCell('reason', reason, ctx),
    deliveredAddress(record.delivered),
  ];
}

/**
 * What an entry says, on one line: `event: 2 in_transit`, `attempt 1: 1 failed (1 not_at_home)`;
 * in the compact view `event: in_transit`, `attempt 1: failed (not_at_home)`.
 */
export function entrySummary(entry: TimelineEntry, ctx: FormatContext): string {
  const [, , label = '', state = '', reason = ''] = timelineCells(entry, { ...ctx, colour: false, tty: false });
  return `${label}: ${state}${reason === '' ? '' : ` (${reason})`}`;
}

/**
 * How the timeline's columns meet a narrow terminal (table.ts `fitTable`): what happened and when
 * stay, the age goes first, the delivered address (free text) is shortened.
 */
const TIMELINE_FITS: readonly ColumnFit[] = [
  { priority: 60, text: false },
  { priority: 20, text: false },
  { priority: 70, text: false },
  { priority: 80, text: false },
  { priority: 50, text: false },
  { priority: 10, text: true },
];
const ID_FIT: ColumnFit = { priority: Number.POSITIVE_INFINITY, text: false };

/** The columns a timeline on a terminal shows and their widths, kept for the rows that follow (`--watch`). */
export interface TimelineFit {
  kept: number[];
  widths: number[];
}

/**
 * Timeline lines as a table (header and all) or, with `header` false, as more rows of a table
 * already printed. Returns the columns and widths used on a terminal, to pass back for the next
 * rows so they line up.
 */
export async function renderTimeline(
  io: IO,
  lines: readonly TimelineLine[],
  opts: TimelineViewOptions & { header: boolean; withId: boolean; fit?: TimelineFit; room?: boolean },
): Promise<TimelineFit | undefined> {
  const ctx = formatContext(io, opts);
  const headers = opts.withId ? ['entry_id', ...TIMELINE_COLUMNS] : TIMELINE_COLUMNS;
  const idCell = (id: string | undefined): string => sanitize(id === undefined ? '' : (ctx.shortId?.(id) ?? id));
  const rows = lines.map(({ id, entry }) => [...(opts.withId ? [idCell(id)] : []), ...timelineCells(entry, ctx)]);
  if (!io.stdoutIsTTY) {
    const age = (opts.withId ? 1 : 0) + AGE_COLUMN;
    const absolute = <T>(row: readonly T[]): T[] => row.filter((_, i) => i !== age);
    await writeOut(io.stdout, renderTsv(opts.header ? absolute(headers) : [], rows.map(absolute)));
    return undefined;
  }
  const table = await import('../io/table.js');
  const fits = opts.withId ? [ID_FIT, ...TIMELINE_FITS] : TIMELINE_FITS;
  let natural = table.naturalWidths(headers, rows);
  if (opts.room) natural = natural.map((w, i) => Math.max(w, (opts.withId ? [idWidth(ctx), ...room(io, ctx)] : room(io, ctx))[i] ?? 0));
  let fit: TimelineFit;
  let leftOut: number[] = [];
  if (opts.fit === undefined) {
    // A column empty in every row holds nothing to leave out (as a view's columns, views/layout.ts),
    // unless rows still to come may fill it (`room`).
    const shown = headers.map((_, c) => c).filter((c) => opts.room === true || rows.some((row) => row[c] !== ''));
    // `-o wide` shows every column, as wide tables do: lines may run past the edge.
    const fitted = table.fitTable(
      shown.map((c) => natural[c] ?? 0),
      shown.map((c) => fits[c] as ColumnFit),
      opts.format === 'wide' ? Number.POSITIVE_INFINITY : io.columns,
    );
    fit = { kept: fitted.kept.map((k) => shown[k] as number), widths: fitted.widths };
    leftOut = fitted.dropped.map((k) => shown[k] as number);
  } else {
    // Later rows keep the columns and widths on screen; a whole value wider than its column widens
    // it, and the last column (free text) may take what is left of the line.
    const { kept, widths } = opts.fit;
    const next = kept.map((c, i) => (fits[c]?.text === true ? (widths[i] ?? 0) : Math.max(widths[i] ?? 0, natural[c] ?? 0)));
    const last = kept.length - 1;
    if (fits[kept[last] ?? -1]?.text === true) {
      const used = next.slice(0, last).reduce((a, w) => a + w, 0) + table.GAP * last;
      next[last] = Math.max(next[last] ?? 0, Math.min(natural[kept[last] ?? -1] ?? 0, io.columns - used));
    }
    fit = { kept, widths: next };
  }
  if (rows.length > 0 || opts.header) {
    const pick = <T>(row: readonly T[]): T[] => fit.kept.map((c) => row[c] as T);
    const text = pick(fits).map((f) => f.text);
    await writeOut(io.stdout, table.renderTable(pick(headers), rows.map(pick), { tty: true, colour: io.colour, widths: fit.widths, text, header: opts.header }));
  }
  // Named once, under the table (a watch's later rows keep its columns).
  await reportLeftOut(io, leftOut.map((c) => table.headerText(headers[c] ?? '')));
  return fit;
}

/**
 * Widths the rows to come will most likely need (`--watch`): a time in the display zone, "just
 * now", "attempt 10", the longest outcome and reason names of the spec, so later rows line up.
 */
function room(io: IO, ctx: FormatContext): number[] {
  const time = ctx.compact === true && io.timeZone !== undefined ? 'today 00:00'.length : timeText(0, io.timeZone).length;
  const state = ctx.compact === true ? 19 : 21;
  const reason = ctx.compact === true ? 17 : 19;
  return [time, 8, 10, state, reason, 0];
}

/** A parcel id: whole (a UUID), or the shortest prefix shown (src/io/short-ids.ts; a longer one widens the column). */
function idWidth(ctx: FormatContext): number {
  return ctx.shortId === undefined ? 36 : ID_PREFIX_MIN;
}

/** One parcel: its fields as key/value, then its timeline under a heading (with `room` for rows to come). */
export async function renderParcelTimeline(
  io: IO,
  parcel: unknown,
  entries: readonly TimelineEntry[],
  opts: TimelineViewOptions & { room?: boolean },
): Promise<TimelineFit | undefined> {
  await renderRecord(io, parcel, { format: opts.format ?? 'table', names: opts.names, now: opts.now });
  await renderHeading(io, 'Timeline', false);
  if (entries.length === 0) {
    await writeOut(io.stderr, 'No events or attempts yet.\n');
    // On a terminal no header stands over nothing (the first entry to come brings its own); piped, scripts get the header line.
    if (io.stdoutIsTTY) return undefined;
  }
  return renderTimeline(io, entries.map((entry) => ({ entry })), { ...opts, header: true, withId: false });
}

/**
 * One row of the several-parcels view: where each parcel is now. `status` is shown only when the
 * parcel record echoes one (the spec does not promise it); the rest comes from the timeline.
 */
export function stateItem(id: string, parcel: unknown, entries: readonly TimelineEntry[], opts: TimelineViewOptions): Record<string, unknown> {
  const latest = latestEntry(entries);
  const record = latest !== undefined && isRecord(latest.record) ? latest.record : {};
  const ctx: FormatContext = { names: opts.names, now: opts.now, colour: false, compact: opts.compact };
  return {
    entry_id: id,
    status: isRecord(parcel) ? parcel.status : undefined,
    latest_at: latest?.at ?? null,
    latest: latest === undefined ? null : entrySummary(latest, ctx),
    delivered_to: latest?.kind === 'attempt' ? deliveredAddress(record.delivered) || undefined : undefined,
    delivered: entries.some(isDelivery),
  };
}
