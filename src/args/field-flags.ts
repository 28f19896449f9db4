import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { FlagName } from '../schemas/flag-name.js';

/**
 * Request field → the flag that sets it, so errors name what the user typed. Fields missing here
 * are set by the command's flag named `--` + the field name with dashes (`delivered_country` → `--delivered-country`).
 */
export const FLAG_FOR_FIELD: Readonly<Record<string, FlagName>> = {
  ...Object.fromEntries(PARCEL_FIELDS.map((f) => [f.name, `--${f.flag}` as const])),
  time_attempt: '--at',
  occurred_at: '--at',
};
