import { UsageError } from '../errors.js';

/** The parcel ID of `events add` / `attempts add`: optional in the definition only because --from replaces it. */
export function bareIdArg(value: string | undefined): string {
  if (value === undefined) throw new UsageError("missing ID: the parcel's entry_id (or --from FILE|- for many)", 'ID');
  return value;
}
