/**
 * How a parcel's timeline looks to a person: one line per entry with its time, age, what happened
 * (status or outcome name), the reason and the delivered address. On a terminal an aligned table,
 * piped tab-separated rows (table.ts's two forms). Machine formats print `entryJson` instead.
 */
import type { TimelineEntry } from '../track/timeline.js';
import { isRecord } from '../schemas/record.js';
import { isDelivery, latestEntry } from '../track/timeline.js';
import { styles } from './colour.js';
import type { CodeNames, FormatContext } from './format.js';
import { formatCell, relativeTime } from './format.js';
import { renderHeading, renderRecord } from './render.js';
import { sanitize } from './sanitize.js';
import { writeOut } from './streams.js';
import type { IO } from './streams.js';
import { renderTsv } from './tsv.js';

export interface TimelineViewOptions {
  names?: CodeNames;
  /** Current time, Unix seconds (for the age column). */
  now: number;
}

/** One line of a timeline; `id` names the parcel when several are followed at once. */
export interface TimelineLine {
  id?: string;
  entry: TimelineEntry;
}

export const TIMELINE_COLUMNS = ['time', 'age', 'entry', 'state', 'reason', 'delivered'];

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

/** The cells of one entry, in TIMELINE_COLUMNS order. */
export function timelineCells(entry: TimelineEntry, ctx: FormatContext): string[] {
  const s = styles(ctx.colour);
  const record = entry.record;
  if (entry.at === null || !isRecord(record)) {
    // Shown generically: the record itself, whatever it holds.
    return ['', '', entry.kind, sanitize(JSON.stringify(record) ?? ''), '', ''];
  }
  const age = relativeTime(entry.at, ctx.now);
  // Off a terminal a time field is bare ISO 8601; the age has a column of its own.
  const time = formatCell('occurred_at', entry.at, { ...ctx, tty: false });
  if (entry.kind === 'event') {
    return [time, ctx.tty ? s.dim(age) : age, entryLabel(entry), formatCell('status', record.status, ctx), '', ''];
  }
  const reason = integer(record, 'reason');
  return [
    time,
    ctx.tty ? s.dim(age) : age,
    entryLabel(entry),
    formatCell('outcome', record.outcome, ctx),
    // Reason 0 means "no reason": an empty cell says the same.
    reason === undefined || reason === 0 ? '' : formatCell('reason', reason, ctx),
    deliveredAddress(record.delivered),
  ];
}

/** What an entry says, on one line: `event: 2 in_transit`, `attempt 1: 1 failed (1 not_at_home)`. */
export function entrySummary(entry: TimelineEntry, ctx: FormatContext): string {
  const [, , label = '', state = '', reason = ''] = timelineCells(entry, { ...ctx, colour: false, tty: false });
  return `${label}: ${state}${reason === '' ? '' : ` (${reason})`}`;
}

/**
 * Timeline lines as a table (header and all) or, with `header` false, as more rows of a table
 * already printed. Returns the column widths used on a terminal, to pass back for the next rows so
 * they line up.
 */
export async function renderTimeline(
  io: IO,
  lines: readonly TimelineLine[],
  opts: TimelineViewOptions & { header: boolean; withId: boolean; widths?: number[]; room?: boolean },
): Promise<number[] | undefined> {
  const ctx: FormatContext = { names: opts.names, now: opts.now, colour: io.colour, tty: io.stdoutIsTTY };
  const headers = opts.withId ? ['entry_id', ...TIMELINE_COLUMNS] : TIMELINE_COLUMNS;
  const rows = lines.map(({ id, entry }) => [...(opts.withId ? [sanitize(id ?? '')] : []), ...timelineCells(entry, ctx)]);
  if (!io.stdoutIsTTY) {
    await writeOut(io.stdout, renderTsv(opts.header ? headers : [], rows));
    return undefined;
  }
  const table = await import('./table.js');
  let natural = table.columnWidths(headers, rows);
  if (opts.room) natural = natural.map((w, i) => Math.max(w, (opts.withId ? [ID_WIDTH, ...ROOM] : ROOM)[i] ?? 0));
  const widths = opts.widths ? continueWidths(opts.widths, natural, io.columns) : fitTimeline(natural, io.columns, TABLE_GAP);
  if (rows.length > 0 || opts.header) {
    await writeOut(io.stdout, table.renderTable(headers, rows, { tty: true, colour: io.colour, columns: io.columns, widths, header: opts.header }));
  }
  return widths;
}

/**
 * Widths the rows to come will most likely need (`--watch`): an ISO time, "just now", "attempt 10",
 * the longest outcome and reason names of the spec, so later rows line up with the first ones.
 */
const ROOM = [20, 8, 10, 21, 19, 0];
/** A parcel id (UUID). */
const ID_WIDTH = 36;
/** Spaces between the columns of a terminal table (as table.ts draws them). */
const TABLE_GAP = 2;
/** Narrowest a reason or address column is cut to. */
const MIN_FLEXIBLE_WIDTH = 8;

/**
 * Widths for a terminal `columns` wide: times, ages, entries and states keep their natural width
 * (a cut time is no time); the reason and delivered-address columns (the last two) share what is
 * left, the wider one cut first. Too narrow a terminal still gets whole times, and wraps.
 */
export function fitTimeline(natural: readonly number[], columns: number, gap: number): number[] {
  const flexible = natural.slice(-2);
  const fixed = natural.slice(0, -2).reduce((a, b) => a + b, 0) + gap * Math.max(0, natural.length - 1);
  const available = columns - fixed;
  if (flexible.reduce((a, b) => a + b, 0) <= available) return [...natural];
  let cap = MIN_FLEXIBLE_WIDTH;
  while (flexible.reduce((a, w) => a + Math.min(w, cap + 1), 0) <= available) cap++;
  return [...natural.slice(0, -2), ...flexible.map((w) => Math.min(w, cap))];
}

/**
 * Widths for more rows of a table already on screen: every column but the last keeps its width
 * (widening only for a value that needs it), so the rows line up; the last takes what is left.
 */
export function continueWidths(previous: readonly number[], natural: readonly number[], columns: number): number[] {
  const widths = previous.map((w, i) => Math.max(w, natural[i] ?? 0));
  const last = widths.length - 1;
  const used = widths.slice(0, last).reduce((a, b) => a + b, 0) + TABLE_GAP * last;
  widths[last] = Math.max(MIN_FLEXIBLE_WIDTH, Math.min(natural[last] ?? 0, columns - used));
  return widths;
}

/** One parcel: its fields as key/value, then its timeline under a heading (with `room` for rows to come). */
export async function renderParcelTimeline(
  io: IO,
  parcel: unknown,
  entries: readonly TimelineEntry[],
  opts: TimelineViewOptions & { room?: boolean },
): Promise<number[] | undefined> {
  await renderRecord(io, parcel, { format: 'table', names: opts.names, now: opts.now });
  await renderHeading(io, 'Timeline', false);
  if (entries.length === 0) await writeOut(io.stderr, 'No events or attempts yet.\n');
  return renderTimeline(io, entries.map((entry) => ({ entry })), { ...opts, header: true, withId: false });
}

/**
 * One row of the several-parcels view: where each parcel is now. `status` is shown only when the
 * parcel record echoes one (the spec does not promise it); the rest comes from the timeline.
 */
export function stateItem(id: string, parcel: unknown, entries: readonly TimelineEntry[], opts: TimelineViewOptions): Record<string, unknown> {
  const latest = latestEntry(entries);
  const record = latest !== undefined && isRecord(latest.record) ? latest.record : {};
  const ctx: FormatContext = { names: opts.names, now: opts.now, colour: false };
  return {
    entry_id: id,
    status: isRecord(parcel) ? parcel.status : undefined,
    latest_at: latest?.at ?? null,
    latest: latest === undefined ? null : entrySummary(latest, ctx),
    delivered_to: latest?.kind === 'attempt' ? deliveredAddress(record.delivered) || undefined : undefined,
    delivered: entries.some(isDelivery),
  };
}
