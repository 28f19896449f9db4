import * as z from 'zod/mini';
import { PARCEL_STATUS_MAX, PARCEL_STATUS_MIN } from './codes.js';
import { intRange, plainText, typeError } from './text.js';
import { DUTCH_POSTCODE } from './history.js';
import type { ParcelFieldRow } from './parcel-fields.js';
import { PARCEL_FIELDS } from './parcel-fields.js';

/** A Dutch address has a Dutch postcode (the spec's rule for delivered addresses: four digits, two letters). */
export const NL_POSTCODE_MESSAGE = 'must be a Dutch postcode (four digits followed by two letters) when country is NL';
export function wrongDutchPostcode(country: unknown, postalCode: unknown): boolean {
  return country === 'NL' && typeof postalCode === 'string' && !DUTCH_POSTCODE.test(postalCode);
}

// Text fields under the one text-field rule (src/schemas/text.ts): no control characters.
const requiredText = (what: string) => plainText(`must be a string (${what})`).check(z.minLength(1, { error: 'is required and must not be empty' }));
const optionalText = () => z.optional(plainText());
const optionalInt = () => z.optional(z.int({ error: typeError('must be an integer') }));
/** An optional field of a change body: null clears it (spec 4.4: "a field set to null is cleared"). */
const changedText = (what: string) => z.optional(requiredText(what));
const clearableText = () => z.optional(z.nullable(plainText('must be a string ("" or null clears it)')));
const clearableInt = () => z.optional(z.nullable(z.int({ error: typeError('must be an integer, or null to clear it') })));

type Shape<Required, OptionalText, OptionalInt> = {
  [F in ParcelFieldRow as F['name']]: F['required'] extends true ? Required : F['kind'] extends 'text' ? OptionalText : OptionalInt;
};

/** The schema of each field in the table, built by the field's kind and whether it is required. */
function shape<R, T, I>(required: (what: string) => R, text: () => T, int: () => I): Shape<R, T, I> {
  // Optional text fields last: a parsed body keeps the key order it always had, so its bytes (and
  // the idempotency keys and ETags hashed from them) do not change.
  const ordered = [...PARCEL_FIELDS.filter((f) => f.required || f.kind !== 'text'), ...PARCEL_FIELDS.filter((f) => !f.required && f.kind === 'text')];
  const entries = ordered.map((f) => [f.name, 'what' in f ? required(f.what) : f.kind === 'text' ? text() : int()]);
  return Object.fromEntries(entries) as Shape<R, T, I>;
}

/**
 * Parcel create input (spec 2.2). Only the spec's rules: the four required fields and the types of
 * the optional ones. Fields beyond these are "not shown" in the spec, so they pass through untouched:
 * a real service may accept them, and the client must not refuse what it cannot know is wrong.
 */
export const parcelCreateSchema = z
  .looseObject(shape(requiredText, optionalText, optionalInt))
  .check(z.refine((p) => !wrongDutchPostcode(p.country, p.postal_code), { message: NL_POSTCODE_MESSAGE, path: ['postal_code'] }));
export type ParcelCreateInput = z.infer<typeof parcelCreateSchema>;

/**
 * Parcel change body (spec 4.4): a subset of the create fields; a field set to null is cleared
 * (e.g. `parcel_weight: null`) and a text field set to "" is cleared (e.g. `addition: ""`). Which
 * other fields may change is not shown, so the schema types the known ones and lets the rest
 * through. The body must not be empty.
 */
export const parcelPatchSchema = z
  .looseObject(shape(changedText, clearableText, clearableInt))
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'must change at least one field' }));
export type ParcelPatchInput = z.infer<typeof parcelPatchSchema>;

export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 50;

/** Query of GET /deliveries/v1/parcels (spec 4.1), as typed values. */
export const parcelListQuerySchema = z.object({
  limit: z._default(intRange(LIST_LIMIT_MIN, LIST_LIMIT_MAX), LIST_LIMIT_DEFAULT),
  cursor: z.optional(z.string().check(z.minLength(1, { error: 'must not be empty' }))),
  courier: z.optional(z.string().check(z.minLength(1, { error: 'must not be empty' }))),
  status: z.optional(intRange(PARCEL_STATUS_MIN, PARCEL_STATUS_MAX)),
});
export type ParcelListQuery = z.infer<typeof parcelListQuerySchema>;
