import { UsageError } from '../errors.js';
import type { FlagField } from '../schemas/flag-name.js';

/**
 * Time flags (`--at`, `--slot-start`, `--slot-end`) as people say them. Every form resolves to
 * Unix seconds; forms without an explicit offset are read in the machine's local time zone (TZ),
 * and `now` and the relative forms count from `now`, the local clock corrected by the service's
 * last measured clock skew (see src/config/clock-skew.ts).
 */

const FORMS =
  'Unix seconds (1763798400), ISO 8601 with an offset (2026-11-22T08:00:00Z, 2026-11-22T09:00+01:00) or without one ' +
  '(2026-11-22T09:00, local time), "now", a relative time (-15m, -2h, -1d, 15m ago, +2h, in 30m), ' +
  'or a day and a local time (today 14:30, yesterday 09:00, tomorrow 08:00)';

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DAY_AND_TIME = /^(today|yesterday|tomorrow)\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$/i;
const UNIT = '(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|weeks?)';
const RELATIVE_SIGNED = new RegExp(`^([+-])\\s*(\\d+)\\s*${UNIT}$`, 'i');
const RELATIVE_AGO = new RegExp(`^(\\d+)\\s*${UNIT}\\s+ago$`, 'i');
const RELATIVE_IN = new RegExp(`^in\\s+(\\d+)\\s*${UNIT}$`, 'i');

/** Parses a time flag; `now` is Unix seconds. Errors name the flag and list the accepted forms. */
export function timeFlag(value: string, flag: FlagField, now: number): number {
  const seconds = parseTime(value.trim(), now);
  if (seconds === undefined) throw new UsageError(`${flag} must be ${FORMS} (got "${value}")`, flag);
  return seconds;
}

function parseTime(text: string, now: number): number | undefined {
  if (text.toLowerCase() === 'now') return now;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return relative(text, now) ?? iso(text) ?? dayAndTime(text, now);
}

function unitSeconds(unit: string): number {
  return UNIT_SECONDS[unit.toLowerCase()[0] as string] as number;
}

function relative(text: string, now: number): number | undefined {
  const signed = RELATIVE_SIGNED.exec(text);
  if (signed) return now + (signed[1] === '-' ? -1 : 1) * Number(signed[2]) * unitSeconds(signed[3] as string);
  const ago = RELATIVE_AGO.exec(text);
  if (ago) return now - Number(ago[1]) * unitSeconds(ago[2] as string);
  const ahead = RELATIVE_IN.exec(text);
  if (ahead) return now + Number(ahead[1]) * unitSeconds(ahead[2] as string);
  return undefined;
}

function iso(text: string): number | undefined {
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const fraction = match[7] === undefined ? 0 : Number(`0.${match[7]}`);
  const zone = match[8];
  if (!validParts(year as number, month as number, day as number, hour, minute, second)) return undefined;
  if (zone === undefined) {
    return localSeconds(year as number, month as number, day as number, hour, minute, second);
  }
  const utcMs = Date.UTC(year as number, (month as number) - 1, day as number, hour, minute, second) + Math.floor(fraction * 1000);
  return Math.floor((utcMs - zoneOffsetMs(zone)) / 1000);
}

function dayAndTime(text: string, now: number): number | undefined {
  const match = DAY_AND_TIME.exec(text);
  if (!match) return undefined;
  const shift = { today: 0, yesterday: -1, tomorrow: 1 }[(match[1] as string).toLowerCase() as 'today' | 'yesterday' | 'tomorrow'];
  const [hour, minute, second] = [match[2], match[3], match[4]].map((part) => Number(part ?? 0)) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const base = new Date(now * 1000);
  // Local calendar arithmetic: the Date constructor normalises day 0 or 32 into the right month.
  return localSeconds(base.getFullYear(), base.getMonth() + 1, base.getDate() + shift, hour, minute, second);
}

function validParts(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= daysInMonth;
}

function localSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  return Math.floor(new Date(year, month - 1, day, hour, minute, second).getTime() / 1000);
}

/** `Z` → 0; `+01:00`, `+0100`, `-05` → the offset in milliseconds. */
function zoneOffsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || 0);
  return sign * (hours * 60 + minutes) * 60_000;
}
