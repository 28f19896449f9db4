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

/** The code fields only the service names (service and location types): read before a line's identity. */
export const SERVICE_CODE_FIELDS: ReadonlyMap<string, { flag: FlagName; table: keyof CodeNames }> = new Map([...CODE_FIELDS].filter(([, code]) => !specNamesCodes(code.table)));

/** The nested group of an attempt whose fields are read as well (its location type). */
const NESTED = 'delivered';

type Parse = (value: string, flag: FlagName, now: number) => number;

const time: Parse = (value, flag, now) => timeFlag(value, flag, now);
const integer: Parse = (value, flag) => intFlag(value, flag);
const specCode = (table: keyof CodeNames): Parse => {
  const names = codeTable(table, undefined);
  return (value, flag) => codeFlag(value, flag, names);
};

/** Field → the flag that sets it and how that flag reads its value, read after a line's identity (service codes: see readServiceCodes). */
const READERS: ReadonlyMap<string, { flag: FlagName; parse: Parse }> = new Map([
  ...PARCEL_FIELDS.filter((f) => f.kind === 'time' || f.kind === 'integer').map((f) => [f.name, { flag: FLAG_FOR_FIELD[f.name] as FlagName, parse: f.kind === 'time' ? time : integer }] as const),
  ['occurred_at', { flag: '--at', parse: time }],
  ['time_attempt', { flag: '--at', parse: time }],
  ...[...CODE_FIELDS].filter(([, code]) => specNamesCodes(code.table)).map(([name, code]) => [name, { flag: code.flag, parse: specCode(code.table) }] as const),
]);

export type ReadValues = { ok: true; fields: Record<string, unknown> } | { ok: false; field: string; message: string };

/**
 * The service and location type fields (an attempt's `delivered` group included) with their names
 * read as their flags read them, by `names`, the service's (read once per run before anything is
 * sent: code-names.ts; none when the input writes numbers). Looked up by name: a line without them
 * costs two property reads.
 */
export function readServiceCodes(fields: Record<string, unknown>, names: CodeNames | undefined): ReadValues {
  let read: Record<string, unknown> | undefined;
  for (const [name, code] of SERVICE_CODE_FIELDS) {
    const value = fields[name];
    if (typeof value !== 'string') continue;
    const parsed = flagRule(name, code.flag, () => codeFlag(value, code.flag, codeTable(code.table, names)));
    if (!parsed.ok) return parsed;
    (read ??= { ...fields })[name] = parsed.value;
  }
  const nested = fields[NESTED];
  if (isRecord(nested)) {
    const group = readServiceCodes(nested, names);
    if (!group.ok) return group;
    if (group.fields !== nested) (read ??= { ...fields })[NESTED] = group.fields;
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
