/**
 * How one value looks in a human view (table cell or key/value line). Machine formats (json,
 * ndjson, csv) never go through here: they carry the service's values unchanged.
 */
import type { CodeNames } from '../schemas/codes.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { styles } from './colour.js';
import type { Styles } from './colour.js';
import { sanitize } from './sanitize.js';
import type { IO } from './streams.js';
import { compactTime, isoUtcSeconds, relativeTime, timeText } from '../schemas/time-text.js';
import { DELIVERED_OUTCOMES } from '../schemas/codes.js';
import type { OutputFormat } from './output-format.js';
import type { ShortId } from './short-ids.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';

export type { CodeNames };

export interface FormatContext {
  names?: CodeNames;
  /** Current time, Unix seconds. */
  now: number;
  colour: boolean;
  /**
   * Human on a terminal: null shows as "-" and timestamps get a relative "(3m ago)". Off a TTY
   * (tab-separated output for scripts) null is "" and timestamps are bare ISO 8601, so a column
   * is stable and parseable (gh does the same). Default false.
   */
  tty?: boolean;
  /**
   * IANA zone timestamps are shown in on a terminal (`Europe/Amsterdam`, `UTC`): `IO.timeZone`, see
   * time.ts. Absent: ISO 8601 in UTC, the stable form for scripts.
   */
  timeZone?: string;
  /**
   * A person's terminal in the default view, where a table must fit: codes by name alone
   * (`in_transit`), times compact (`today 19:45`), parcel ids by `shortId`. `-o wide` and piped
   * text show them whole (`2 in_transit`, ISO 8601, the whole id). Default false.
   */
  compact?: boolean;
  /** How a parcel id is shown in the compact view (src/io/short-ids.ts); default whole. */
  shortId?: ShortId;
}

/** How values look on stdout: its colour, whether it is a terminal (compact unless `-o wide`), the zone its times are shown in. */
export function formatContext(io: IO, opts: { names?: CodeNames; now: number; format?: OutputFormat; shortId?: ShortId }): FormatContext {
  const compact = io.stdoutIsTTY && opts.format !== 'wide';
  return { names: opts.names, now: opts.now, colour: io.colour, tty: io.stdoutIsTTY, timeZone: io.timeZone, compact, shortId: compact ? opts.shortId : undefined };
}

type CodeKind = keyof CodeNames;

const CODE_FIELDS: Readonly<Record<string, CodeKind>> = {
  status: 'status',
  outcome: 'outcome',
  reason: 'reason',
  location_type: 'location_type',
  delivered_location_type: 'location_type',
  service_type: 'service_type',
};

const BUILTIN: Partial<Record<CodeKind, Readonly<Record<number, string>>>> = {
  status: STATUS_NAMES,
  outcome: OUTCOME_NAMES,
  reason: REASON_NAMES,
};

/** The last segment of a dotted path: `delivered.delivered_location_type` → `delivered_location_type`. */
export function leaf(field: string): string {
  const i = field.lastIndexOf('.');
  return i === -1 ? field : field.slice(i + 1);
}

/** The name of a code, from `names` first, then the spec's own names (status 0–3, outcome, reason). */
export function codeName(field: string, code: number, names?: CodeNames): string | undefined {
  const kind = CODE_FIELDS[leaf(field)];
  if (!kind) return undefined;
  const learned = names?.[kind];
  if (learned && Object.prototype.hasOwnProperty.call(learned, code)) return learned[code];
  const builtin = BUILTIN[kind];
  if (builtin && Object.prototype.hasOwnProperty.call(builtin, code)) return builtin[code];
  return undefined;
}

/**
 * A code as every view shows it (a status, outcome, reason…; `kind` is the code field whose names
 * apply, e.g. `status` for a simulated step's `event`): its name alone in the compact view
 * (`in_transit`), number and name elsewhere (`2 in_transit`), the number alone when no name is
 * known. Statuses are coloured. Undefined when `kind` is no code field.
 */
export function codeText(kind: string, code: number, ctx: FormatContext): string | undefined {
  if (CODE_FIELDS[leaf(kind)] === undefined) return undefined;
  const name = codeName(kind, code, ctx.names);
  if (name === undefined) return String(code);
  const text = ctx.compact === true ? sanitize(name) : `${code} ${sanitize(name)}`;
  return leaf(kind) === 'status' ? statusStyle(name, styles(ctx.colour))(text) : text;
}

/** Units of the fields counted in one (`parcel_weight` in g), from the field table; times and codes have their own form. */
const UNITS: ReadonlyMap<string, string> = new Map(PARCEL_FIELDS.flatMap((f) => (f.kind === 'integer' && 'unit' in f ? [[f.name, f.unit]] : [])));

/** A number's cell with its field's unit, on a terminal's record: `1200 g`. */
export function withUnit(field: string, value: unknown, cell: string): string {
  const unit = UNITS.get(leaf(field));
  return unit !== undefined && typeof value === 'number' ? `${cell} ${unit}` : cell;
}

/** Largest value still read as seconds (year 5138); larger integers are shown as they are. */
const MAX_SECONDS = 1e11;

/** Fields holding Unix seconds: `at`, `*_at`, `time_*` (`time_attempt`, `time_slot_period_start`). */
export function isTimestampField(field: string): boolean {
  const name = leaf(field);
  return name === 'at' || name.endsWith('_at') || name.startsWith('time_');
}

/** Whether `value` can be read as the Unix seconds of a timestamp field. */
export function isTimestampValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_SECONDS;
}

/** Statuses worth a colour at a glance: delivered green, not delivered red; in progress plain. */
export function statusStyle(name: string, s: Styles): (text: string) => string {
  if (name === 'delivered') return s.green;
  if (name === 'not_delivered') return s.red;
  return (text) => text;
}

/** A time without its age: compact in the compact view (`today 20:57`), else in the display zone or UTC (ISO 8601). */
export function timeCell(seconds: number, ctx: FormatContext): string {
  return ctx.compact === true && ctx.timeZone !== undefined ? compactTime(seconds, ctx.timeZone, ctx.now) : timeText(seconds, ctx.timeZone);
}

/** A time with its age on a terminal: `today 20:57 (3m ago)`, with `-o wide` `2026-11-22T20:57:47+01:00 (3m ago)`. */
function humanTime(seconds: number, ctx: FormatContext): string {
  const text = timeCell(seconds, ctx);
  return ctx.tty === true ? `${text} ${styles(ctx.colour).dim(`(${relativeTime(seconds, ctx.now)})`)}` : text;
}

/** Attempt outcomes at a glance (spec 2.4): delivered (0) and delivered elsewhere (2) green, failed (1) and refused (3) red. */
export function outcomeStyle(outcome: number, s: Styles): (text: string) => string {
  if (DELIVERED_OUTCOMES.has(outcome)) return s.green;
  if (outcome === 1 || outcome === 3) return s.red;
  return (text) => text;
}

/** Fields that hold a parcel's id: shortened on a terminal (`parcel` is the outbox's). */
const PARCEL_ID_FIELDS = new Set(['entry_id', 'parcel']);

export function formatCell(field: string, value: unknown, ctx: FormatContext): string {
  const s = styles(ctx.colour);
  const tty = ctx.tty ?? false;
  if (value === null || value === undefined) return tty ? s.dim('-') : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) {
      const code = codeText(field, value, ctx);
      if (code !== undefined) return code;
      if (isTimestampField(field) && isTimestampValue(value)) {
        return humanTime(value, ctx);
      }
    }
    return String(value);
  }
  if (typeof value === 'string') {
    if (ctx.shortId !== undefined && PARCEL_ID_FIELDS.has(leaf(field))) return sanitize(ctx.shortId(value));
    // An ISO time the sandbox or the outbox writes (`2026-11-22T19:57:47.123Z`) reads like any other
    // time on a terminal; piped it stays as it came.
    const seconds = ctx.timeZone === undefined ? undefined : isoUtcSeconds(value);
    return seconds === undefined ? sanitize(value) : humanTime(seconds, ctx);
  }
  if (typeof value === 'bigint') return value.toString();
  // A list of plain values reads as a list (`NL, BE`), not as a JSON blob.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => formatCell(field, v, { ...ctx, tty: false })).join(', ');
  }
  return sanitize(JSON.stringify(value) ?? '');
}
