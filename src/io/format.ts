/**
 * How one value looks in a human view (table cell or key/value line). Machine formats (json,
 * ndjson, csv) never go through here: they carry the service's values unchanged.
 */
import type { CodeNames } from '../schemas/codes.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { styles } from './colour.js';
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
function leaf(field: string): string {
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

/** Fields holding Unix seconds: `*_at`, `time_attempt`, `time_slot*`. */
export function isTimestampField(field: string): boolean {
  const name = leaf(field);
  return name.endsWith('_at') || name === 'time_attempt' || name.startsWith('time_slot');
}

/** Largest value still read as seconds (year 5138); larger integers are shown as they are. */
const MAX_SECONDS = 1e11;

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
      if (name !== undefined) return `${value} ${sanitize(name)}`;
      if (isTimestampField(field) && value >= 0 && value < MAX_SECONDS) {
        const iso = isoSeconds(value);
        return tty ? `${iso} ${s.dim(`(${relativeTime(value, ctx.now)})`)}` : iso;
      }
    }
    return String(value);
  }
  if (typeof value === 'string') return sanitize(value);
  if (typeof value === 'bigint') return value.toString();
  return sanitize(JSON.stringify(value) ?? '');
}
