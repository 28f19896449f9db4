import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { namedCodeFlag } from './codes.js';
import { didYouMean } from '../schemas/did-you-mean.js';
import { timeFlag } from './time-input.js';
import { intFlag } from './int.js';
import type { ParcelFieldKind } from '../schemas/parcel-fields.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { FlagName } from '../schemas/flag-name.js';

/** Short names accepted by --clear and --set (the create flags' names), next to the body's own field names. */
const FIELD_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  PARCEL_FIELDS.filter((f) => f.flag !== f.name).map((f) => [f.flag, f.name]),
);

/** The spec's parcel fields (2.2) by kind. Other names pass through: the spec does not show every field. */
const FIELD_TYPES: Readonly<Record<string, ParcelFieldKind>> = Object.fromEntries(PARCEL_FIELDS.map((f) => [f.name, f.kind]));

/** Text fields are cleared with "" (spec 4.4); every other field with null. */
export function clearedValue(field: string): '' | null {
  return FIELD_TYPES[field] === 'text' ? '' : null;
}

/**
 * The body field a `--set`/`--clear` name means. A name that is not a known field but is one typo
 * away from one is refused with "did you mean"; any other name is sent as given.
 */
export function fieldName(name: string, flag: FlagName): string {
  const trimmed = name.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(trimmed)) throw new UsageError(`${flag} needs a field name (got "${name}")`, flag);
  const field = FIELD_ALIASES[trimmed] ?? FIELD_ALIASES[trimmed.replace(/_/g, '-')] ?? trimmed;
  if (FIELD_TYPES[field] !== undefined) return field;
  const hint = didYouMean(field, [...Object.keys(FIELD_TYPES), ...Object.keys(FIELD_ALIASES)]);
  if (hint !== '') throw new UsageError(`${flag}: unknown field "${trimmed}"${hint}`, flag);
  return field;
}

/**
 * The value of `--set field=value` by the field's type: text fields take the text verbatim
 * (`number=12` is the string "12"), integer fields an integer, slot times a time, service_type a
 * code or its name (`null` clears any of these). An unknown field's value is read as JSON when it parses, else as text.
 */
export async function setValue(field: string, raw: string, ctx: Context): Promise<unknown> {
  const flag = `--set ${field}` as const;
  const type = FIELD_TYPES[field];
  // `null` clears a number field, as in the spec's change body; a text field takes "null" as text.
  if (type !== undefined && type !== 'text' && raw.trim() === 'null') return null;
  switch (type) {
    case 'text':
      return raw;
    case 'integer':
      return intFlag(raw, flag);
    case 'time':
      return timeFlag(raw, flag, await ctx.serviceNow());
    case 'service':
      return namedCodeFlag(raw, flag, 'service_type', ctx);
    default:
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
  }
}
