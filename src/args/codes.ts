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
  const spec = SPEC_NAMES[table];
  const isNumber = /^\s*-?\d+\s*$/.test(value);
  if (isNumber || Object.values(spec).some((n) => normaliseName(n) === normaliseName(value))) return codeFlag(value, flag, spec);
  const names = { ...spec, ...(await ctx.codeNames())[table] };
  return codeFlag(value, flag, names);
}

export function statusFlag(value: string, flag: FlagName, ctx: Context): Promise<number> {
  return namedCodeFlag(value, flag, 'status', ctx);
}
