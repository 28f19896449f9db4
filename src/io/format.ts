/**
 * How one value looks in a human view (table cell or key/value line). Machine formats (json,
 * ndjson, csv) never go through here: they carry the service's values unchanged.
 */
import type { CodeNames } from '../schemas/codes.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { styles } from './colour.js';
import type { Styles } from './colour.js';
import { sanitize } from './sanitize.js';

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
   * IANA zone timestamps are shown in on a terminal (`Europe/Amsterdam`, `UTC`): see `displayZone`.
   * Absent: ISO 8601 in UTC, the stable form for scripts.
   */
  timeZone?: string;
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

/**
 * The zone a person's terminal shows times in: UTC with `--utc`, else `TZ` when it names an IANA
 * zone, else the system's own zone.
 */
export function displayZone(env: NodeJS.ProcessEnv, utc: boolean): string {
  if (utc) return 'UTC';
  const tz = env.TZ;
  if (tz !== undefined && tz !== '' && zonedFormatter(tz) !== undefined) return tz;
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

/** One formatter per zone (a long --all list formats thousands of times); undefined for a zone Intl does not know. */
function zonedFormatter(timeZone: string): Intl.DateTimeFormat | undefined {
  if (!formatters.has(timeZone)) {
    let formatter: Intl.DateTimeFormat | undefined;
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
    } catch {
      formatter = undefined;
    }
    formatters.set(timeZone, formatter);
  }
  return formatters.get(timeZone);
}

/** `2026-11-22T20:57:47+01:00` in `timeZone` (`Z` where the offset is zero). */
export function zonedIso(seconds: number, timeZone: string): string {
  const formatter = zonedFormatter(timeZone);
  if (formatter === undefined) return isoSeconds(seconds);
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatter.formatToParts(new Date(seconds * 1000))) part[type] = value;
  const offset = (part.timeZoneName ?? 'GMT').replace(/^GMT/, '');
  const zone = offset === '' || offset === '+00:00' ? 'Z' : offset;
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${zone}`;
}

/** A timestamp for a person: in `timeZone` when given, else UTC. */
export function timeText(seconds: number, timeZone: string | undefined): string {
  return timeZone === undefined ? isoSeconds(seconds) : zonedIso(seconds, timeZone);
}

/** Statuses worth a colour at a glance: delivered green, not delivered red; in progress plain. */
export function statusStyle(name: string, s: Styles): (text: string) => string {
  if (name === 'delivered') return s.green;
  if (name === 'not_delivered') return s.red;
  return (text) => text;
}

/** `2026-11-22T19:57:47Z` */
function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `3m ago`, `in 2h`, `just now`. */
export function relativeTime(seconds: number, now: number): string {
  const diff = now - seconds;
  const abs = Math.abs(diff);
  if (abs < 1) return 'just now';
  let amount: string;
  if (abs < 60) amount = `${Math.floor(abs)}s`;
  else if (abs < 3600) amount = `${Math.floor(abs / 60)}m`;
  else if (abs < 86_400) amount = `${Math.floor(abs / 3600)}h`;
  else if (abs < 86_400 * 60) amount = `${Math.floor(abs / 86_400)}d`;
  else if (abs < 86_400 * 365) amount = `${Math.floor(abs / (86_400 * 30))}mo`;
  else amount = `${Math.floor(abs / (86_400 * 365))}y`;
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}

export function formatCell(field: string, value: unknown, ctx: FormatContext): string {
  const s = styles(ctx.colour);
  const tty = ctx.tty ?? false;
  if (value === null || value === undefined) return tty ? s.dim('-') : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) {
      const name = codeName(field, value, ctx.names);
      if (name !== undefined) {
        const text = `${value} ${sanitize(name)}`;
        return leaf(field) === 'status' ? statusStyle(name, s)(text) : text;
      }
      if (isTimestampField(field) && isTimestampValue(value)) {
        const iso = timeText(value, ctx.timeZone);
        return tty ? `${iso} ${s.dim(`(${relativeTime(value, ctx.now)})`)}` : iso;
      }
    }
    return String(value);
  }
  if (typeof value === 'string') return sanitize(value);
  if (typeof value === 'bigint') return value.toString();
  // A list of plain values reads as a list (`NL, BE`), not as a JSON blob.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => formatCell(field, v, { ...ctx, tty: false })).join(', ');
  }
  return sanitize(JSON.stringify(value) ?? '');
}
