import type { Context } from '../context.js';
import { optionKey } from '../definitions/flags.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { ParcelFieldName } from '../schemas/parcel-fields.js';
import type { FlagName } from '../schemas/flag-name.js';
import { namedCodeFlag } from './codes.js';
import { timeFlag } from './time-input.js';

/**
 * Request field → the flag that sets it, so errors name what the user typed. Fields missing here
 * are set by the command's flag named `--` + the field name with dashes (`delivered_country` → `--delivered-country`).
 */
export const FLAG_FOR_FIELD: Readonly<Record<string, FlagName>> = {
  ...Object.fromEntries(PARCEL_FIELDS.map((f) => [f.name, `--${f.flag}` as const])),
  time_attempt: '--at',
  occurred_at: '--at',
};

/** A parcel field a flag set, with the flag as the user typed it (for errors). */
export interface FieldFromFlag {
  field: ParcelFieldName;
  value: unknown;
  flag: FlagName;
}

/**
 * The parcel fields set by `create`'s and `patch`'s field flags, each parsed the one way its flag
 * is: times as Unix seconds, ISO 8601 or "now" (relative to the service's clock), service types as a
 * code or a name, integers as given.
 */
export async function parcelFieldFlagValues(flags: Readonly<Record<string, unknown>>, ctx: Context): Promise<FieldFromFlag[]> {
  const found: FieldFromFlag[] = [];
  for (const f of PARCEL_FIELDS) {
    const given = flags[optionKey(f.flag)];
    if (given === undefined) continue;
    const flag = `--${f.flag}` as const;
    let value: unknown = given;
    if (f.kind === 'time') value = timeFlag(String(given), flag, await ctx.serviceNow());
    else if (f.kind === 'service') value = await namedCodeFlag(String(given), flag, 'service_type', ctx);
    found.push({ field: f.name, value, flag });
  }
  return found;
}
