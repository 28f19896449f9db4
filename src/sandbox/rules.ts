/**
 * Sandbox-only rules for parcel input. The spec leaves bounds, units and formats of parcel fields
 * "not shown"; the shared schemas in src/schemas/ hold only the spec's rules (the CLI uses them and
 * must not refuse what a real service might accept). The sandbox is stricter, to surface client
 * bugs early; every choice here is listed in docs/sandbox.md.
 */
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { NL_POSTCODE_MESSAGE, wrongDutchPostcode } from '../schemas/parcel.js';
import type { OptionalParcelField, ParcelFieldFact, ParcelFieldName, ParcelFieldRow, ParcelFieldValues, RequiredParcelField } from '../schemas/parcel-fields.js';
import { PARCEL_FIELDS, parcelField } from '../schemas/parcel-fields.js';
import { boundedText, intRange, typeError } from '../schemas/text.js';
import type { FieldIssue } from '../schemas/validate.js';

/** Bounds of the field table (src/schemas/parcel-fields.ts), where the sandbox's choices are written once. */
function boundsOf(name: ParcelFieldName): { min: number; max: number } {
  const bounds = parcelField(name).bounds;
  if (bounds === undefined) throw new Error(`the field table gives ${name} no bounds`);
  return bounds;
}
export const SERVICE_TYPES: ReadonlyArray<{ code: number; name: string }> = [
  { code: 0, name: 'standard' },
  { code: 1, name: 'same_day' },
  { code: 2, name: 'next_day' },
  { code: 3, name: 'evening' },
  { code: 4, name: 'signature_required' },
  { code: 5, name: 'age_check' },
];
export const LOCATION_TYPES: ReadonlyArray<{ code: number; name: string }> = [
  { code: 0, name: 'recipient' },
  { code: 1, name: 'neighbour' },
  { code: 2, name: 'mailbox' },
  { code: 3, name: 'safe_place' },
  { code: 4, name: 'pickup_point' },
  { code: 5, name: 'locker' },
  { code: 6, name: 'reception' },
];

const COUNTRY = /^[A-Z]{2}$/;

const country = () =>
  z.string({ error: typeError('must be a string') }).check(z.regex(COUNTRY, { error: 'must be a two-letter upper-case country code, e.g. NL' }));
const service = () => intRange(0, SERVICE_TYPES.length - 1);

/** A field's value in the sandbox, from its row: its kind and bounds. */
function fieldSchema(field: ParcelFieldFact): ZodMiniType {
  if (field.name === 'country') return country();
  if (field.kind === 'service') return service();
  const { min, max } = boundsOf(field.name as ParcelFieldName);
  return field.kind === 'text' ? boundedText(min, max) : intRange(min, max);
}

/** The fields of a create body in the sandbox, each with its bounds (a seed's parcels take the same). */
export const SANDBOX_CREATE_FIELDS = Object.fromEntries(
  PARCEL_FIELDS.map((f) => [f.name, f.required ? fieldSchema(f) : z.optional(fieldSchema(f))]),
) as CreateFieldSchemas;

/**
 * The create fields' schemas as their types say them (Object.fromEntries cannot): a required field's
 * value, an optional one that may be left out; so a seed's parcels type-check field by field.
 */
type CreateFieldSchemas = { readonly [F in RequiredParcelField]: ZodMiniType<ParcelFieldValues[F], ParcelFieldValues[F]> } & {
  readonly [F in OptionalParcelField]: z.ZodMiniOptional<ZodMiniType<NonNullable<ParcelFieldValues[F]>, NonNullable<ParcelFieldValues[F]>>>;
};

/** Create body in the sandbox: the spec's fields with bounds; unknown fields rejected. */
export const sandboxCreateSchema: ZodMiniType = z.strictObject(SANDBOX_CREATE_FIELDS);

/** Change body in the sandbox: null clears an optional field, "" or null clears addition. */
export const sandboxPatchSchema: ZodMiniType = z.strictObject(
  Object.fromEntries(PARCEL_FIELDS.map((f) => [f.name, z.optional(f.required ? fieldSchema(f) : z.nullable(fieldSchema(f)))])),
);

/** Rules across fields, checked on the complete parcel after a create or a change. */
export function crossFieldIssues(p: ParcelFieldValues, couriers: ReadonlySet<string>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!couriers.has(p.courier)) {
    issues.push({ path: 'courier', message: `is not a registered courier code of your organisation (${[...couriers].join(', ') || 'none'})` });
  }
  if (wrongDutchPostcode(p.country, p.postal_code)) {
    issues.push({ path: 'postal_code', message: NL_POSTCODE_MESSAGE });
  }
  if (p.time_slot_period_start !== null && p.time_slot_period_end !== null && p.time_slot_period_end < p.time_slot_period_start) {
    issues.push({ path: 'time_slot_period_end', message: 'must not be before time_slot_period_start' });
  }
  return issues;
}

/** A validated body value as stored: an absent optional field, null and "" (text) are null. */
export function stored(f: ParcelFieldRow, value: unknown): unknown {
  if (f.required) return value;
  return value === undefined || value === null || (f.kind === 'text' && value === '') ? null : value;
}

/** A validated create body (or a seed's parcel) as the parcel's stored fields. */
export function createFields(body: Readonly<Record<string, unknown>>): ParcelFieldValues {
  const fields: Record<string, unknown> = {};
  for (const f of PARCEL_FIELDS) fields[f.name] = stored(f, body[f.name]);
  return fields as ParcelFieldValues;
}
