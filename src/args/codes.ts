import type { Context } from '../context.js';
import type { CodeNames } from '../schemas/codes.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { codeFlag, normaliseName } from './flags.js';
import type { FlagField, FlagName } from '../schemas/flag-name.js';

/** The spec's own names per table; the others (location and service types) come only from the reference route. */
const SPEC_NAMES: Readonly<Record<keyof CodeNames, Readonly<Record<number, string>>>> = {
  status: STATUS_NAMES,
  outcome: OUTCOME_NAMES,
  reason: REASON_NAMES,
  location_type: {},
  service_type: {},
};

/**
 * A code flag given as its number or its name, in any case and with `-`, `_` or spaces
 * (`in_transit`, `In Transit`, `in-transit`). The spec's names are known at once; any other name is
 * looked up in the service's reference names (one cached request), so a name the output prints is
 * always accepted as input.
 */
export async function namedCodeFlag(value: string, flag: FlagField, table: keyof CodeNames, ctx: Context): Promise<number> {
  return codeFlag(value, flag, needsServiceNames(value, table) ? codeTable(table, await ctx.codeNames()) : SPEC_NAMES[table]);
}

/** A value the spec's own names cannot read: neither a number nor one of them, so the service's names are needed. */
export function needsServiceNames(value: string, table: keyof CodeNames): boolean {
  if (/^\s*-?\d+\s*$/.test(value)) return false;
  const wanted = normaliseName(value);
  return !Object.values(SPEC_NAMES[table]).some((name) => normaliseName(name) === wanted);
}

/** The names a code flag takes: the spec's, then the service's (`service` from its reference route; none: the spec's alone). */
export function codeTable(table: keyof CodeNames, service: CodeNames | undefined): Readonly<Record<number, string>> {
  const extra = service?.[table];
  return extra === undefined ? SPEC_NAMES[table] : { ...SPEC_NAMES[table], ...extra };
}

/** Whether the spec names a table's codes itself (else only the service's reference does). */
export function specNamesCodes(table: keyof CodeNames): boolean {
  return Object.keys(SPEC_NAMES[table]).length > 0;
}

export function statusFlag(value: string, flag: FlagName, ctx: Context): Promise<number> {
  return namedCodeFlag(value, flag, 'status', ctx);
}
