import { FLAG_FOR_FIELD } from '../args/field-flags.js';
import { codeFlag } from '../args/flags.js';
import { intFlag } from '../args/int.js';
import { timeFlag } from '../args/time-input.js';
import { UsageError } from '../errors.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import type { FlagName } from '../schemas/flag-name.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';

/**
 * A line's values as people write them, read by the parser of the flag that sets the same field:
 * status, outcome and reason names (`delivered`, `not_at_home`), times (ISO 8601, a local
 * date-time, `now`, `-1h`), integers. Only text values are read (a CSV cell, or a string in an
 * NDJSON line); numbers are already what the API takes. A time relative to now is resolved against
 * `now`; a line's identity (its digest) keeps the text as written.
 */

type Parse = (value: string, flag: FlagName, now: number) => number;

const time: Parse = (value, flag, now) => timeFlag(value, flag, now);
const integer: Parse = (value, flag) => intFlag(value, flag);
const code =
  (names: Readonly<Record<number, string>>): Parse =>
  (value, flag) =>
    codeFlag(value, flag, names);

/** Field → the flag that sets it and how that flag reads its value. */
const READERS: ReadonlyMap<string, { flag: FlagName; parse: Parse }> = new Map([
  ...PARCEL_FIELDS.filter((f) => f.kind === 'time' || f.kind === 'integer').map((f) => [f.name, { flag: FLAG_FOR_FIELD[f.name] as FlagName, parse: f.kind === 'time' ? time : integer }] as const),
  ['occurred_at', { flag: '--at', parse: time }],
  ['time_attempt', { flag: '--at', parse: time }],
  ['status', { flag: '--status', parse: code(STATUS_NAMES) }],
  ['outcome', { flag: '--outcome', parse: code(OUTCOME_NAMES) }],
  ['reason', { flag: '--reason', parse: code(REASON_NAMES) }],
]);

export type ReadValues = { ok: true; fields: Record<string, unknown> } | { ok: false; field: string; message: string };

/** The fields with their text values read as their flags read them; the first that cannot be read is named with its flag's rule. */
export function readValues(fields: Record<string, unknown>, now: number): ReadValues {
  let read: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(fields)) {
    const reader = READERS.get(name);
    if (reader === undefined || typeof value !== 'string') continue;
    try {
      (read ??= { ...fields })[name] = reader.parse(value, reader.flag, now);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // The flag's rule, said of the field: "must be a code number or one of: … (got "x")".
      return { ok: false, field: name, message: error.message.startsWith(`${reader.flag} `) ? error.message.slice(reader.flag.length + 1) : error.message };
    }
  }
  return { ok: true, fields: read ?? fields };
}
