import { FLAG_FOR_FIELD } from '../args/field-flags.js';
import { codeTable, specNamesCodes } from '../args/codes.js';
import { codeFlag } from '../args/flags.js';
import { intFlag } from '../args/int.js';
import { timeFlag } from '../args/time-input.js';
import { UsageError } from '../errors.js';
import type { CodeNames } from '../schemas/codes.js';
import type { FlagName } from '../schemas/flag-name.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import { isRecord } from '../schemas/record.js';

/**
 * A line's values as people write them, read by the parser of the flag that sets the same field:
 * status, outcome, reason, service and location type names (`delivered`, `not_at_home`,
 * `next_day`), times (ISO 8601, a local date-time, `now`, `-1h`), integers. Only text values are
 * read (a CSV cell, or a string in an NDJSON line); numbers are already what the API takes.
 *
 * Service and location type codes are read before a line's identity (its digest) is taken: a name
 * and its number are the same request, as they are for a flag (`--service-type next_day` and
 * `--service-type 2` send the same bytes); no earlier build took those names in a file, so no
 * journal or created index holds another identity for them. Status, outcome and reason names are
 * read after it, keeping the identity earlier builds gave those lines (the text as written), so a
 * batch begun before this version resumes without sending a line twice. A time relative to now is
 * resolved against `now` after it too: a re-run tomorrow creates nothing twice.
 */

/** Code fields → the flag that sets each and the table its names come from. */
export const CODE_FIELDS: ReadonlyMap<string, { flag: FlagName; table: keyof CodeNames }> = new Map([
  ['status', { flag: '--status', table: 'status' }],
  ['outcome', { flag: '--outcome', table: 'outcome' }],
  ['reason', { flag: '--reason', table: 'reason' }],
  ['service_type', { flag: '--service-type', table: 'service_type' }],
  ['delivered_location_type', { flag: '--delivered-location-type', table: 'location_type' }],
]);

/** The nested group of an attempt whose fields are read as well (its location type). */
const NESTED = 'delivered';

type Parse = (value: string, flag: FlagName, now: number) => number;

const time: Parse = (value, flag, now) => timeFlag(value, flag, now);
const integer: Parse = (value, flag) => intFlag(value, flag);

/** Field → the flag that sets it and how that flag reads its value (codes: see readCodes). */
const READERS: ReadonlyMap<string, { flag: FlagName; parse: Parse }> = new Map([
  ...PARCEL_FIELDS.filter((f) => f.kind === 'time' || f.kind === 'integer').map((f) => [f.name, { flag: FLAG_FOR_FIELD[f.name] as FlagName, parse: f.kind === 'time' ? time : integer }] as const),
  ['occurred_at', { flag: '--at', parse: time }],
  ['time_attempt', { flag: '--at', parse: time }],
]);

export type ReadValues = { ok: true; fields: Record<string, unknown> } | { ok: false; field: string; message: string };

/**
 * Which code fields a pass reads: the tables whose names come from the service (service and location
 * types: before a line's identity) or those the spec names in full (status, outcome, reason: after it).
 */
export type CodeTables = 'service' | 'spec';

/**
 * The code fields of `tables` (an attempt's `delivered` group included) with their names read as
 * their flags read them: the spec's names, and for service and location types `names`, the
 * service's (read once per run before anything is sent: code-names.ts; none when the input writes numbers).
 */
export function readCodes(fields: Record<string, unknown>, names: CodeNames | undefined, tables: CodeTables): ReadValues {
  let read: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(fields)) {
    if (name === NESTED && isRecord(value)) {
      const nested = readCodes(value, names, tables);
      if (!nested.ok) return nested;
      if (nested.fields !== value) (read ??= { ...fields })[name] = nested.fields;
      continue;
    }
    const code = CODE_FIELDS.get(name);
    if (code === undefined || typeof value !== 'string') continue;
    // The spec names every code a line may send as a status, outcome or reason: the service's names are for the other tables.
    const specNamed = specNamesCodes(code.table);
    if (specNamed !== (tables === 'spec')) continue;
    const table = codeTable(code.table, specNamed ? undefined : names);
    const parsed = flagRule(name, code.flag, () => codeFlag(value, code.flag, table));
    if (!parsed.ok) return parsed;
    (read ??= { ...fields })[name] = parsed.value;
  }
  return { ok: true, fields: read ?? fields };
}

/** The fields with their text times and integers read as their flags read them; the first that cannot be read is named with its flag's rule. */
export function readValues(fields: Record<string, unknown>, now: number): ReadValues {
  let read: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(fields)) {
    const reader = READERS.get(name);
    if (reader === undefined || typeof value !== 'string') continue;
    const parsed = flagRule(name, reader.flag, () => reader.parse(value, reader.flag, now));
    if (!parsed.ok) return parsed;
    (read ??= { ...fields })[name] = parsed.value;
  }
  return { ok: true, fields: read ?? fields };
}

/** A flag parser's result, or its rule said of the field: "must be a code number or one of: … (got "x")". */
function flagRule(field: string, flag: FlagName, parse: () => number): { ok: true; value: number } | { ok: false; field: string; message: string } {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ok: false, field, message: error.message.startsWith(`${flag} `) ? error.message.slice(flag.length + 1) : error.message };
  }
}
