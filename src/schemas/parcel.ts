import * as z from 'zod/mini';
import { PARCEL_STATUS_MAX, PARCEL_STATUS_MIN } from './codes.js';
import { intRange, typeError } from './text.js';
import { DUTCH_POSTCODE } from './history.js';

/** A Dutch address has a Dutch postcode (the spec's rule for delivered addresses: four digits, two letters). */
export const NL_POSTCODE_MESSAGE = 'must be a Dutch postcode (four digits followed by two letters) when country is NL';
export function wrongDutchPostcode(country: unknown, postalCode: unknown): boolean {
  return country === 'NL' && typeof postalCode === 'string' && !DUTCH_POSTCODE.test(postalCode);
}

const requiredText = (what: string) =>
  z.string({ error: typeError(`must be a string (${what})`) }).check(z.minLength(1, { error: 'is required and must not be empty' }));
const optionalInt = () => z.optional(z.int({ error: typeError('must be an integer') }));

/**
 * Parcel create input (spec 2.2). Only the spec's rules: the four required fields and the types of
 * the optional ones. Fields beyond these are "not shown" in the spec, so they pass through untouched:
 * a real service may accept them, and the client must not refuse what it cannot know is wrong.
 */
export const parcelCreateSchema = z.looseObject({
  courier: requiredText('registered courier code'),
  country: requiredText('country code'),
  postal_code: requiredText('postal code'),
  number: requiredText('house number as text'),
  parcel_length: optionalInt(),
  parcel_width: optionalInt(),
  parcel_height: optionalInt(),
  parcel_weight: optionalInt(),
  time_slot_period_start: optionalInt(),
  time_slot_period_end: optionalInt(),
  service_type: optionalInt(),
  addition: z.optional(z.string({ error: typeError('must be a string') })),
}).check(z.refine((p) => !wrongDutchPostcode(p.country, p.postal_code), { message: NL_POSTCODE_MESSAGE, path: ['postal_code'] }));
export type ParcelCreateInput = z.infer<typeof parcelCreateSchema>;

/** An optional integer field of a change body: null clears it (spec 4.4: "a field set to null is cleared"). */
const optionalNullableInt = () =>
  z.optional(z.nullable(z.int({ error: typeError('must be an integer, or null to clear it') })));

/**
 * Parcel change body (spec 4.4): a subset of the create fields; a field set to null is cleared
 * (e.g. `parcel_weight: null`) and a text field set to "" is cleared (e.g. `addition: ""`). Which
 * other fields may change is not shown, so the schema types the known ones and lets the rest
 * through. The body must not be empty.
 */
export const parcelPatchSchema = z
  .looseObject({
    courier: z.optional(requiredText('registered courier code')),
    country: z.optional(requiredText('country code')),
    postal_code: z.optional(requiredText('postal code')),
    number: z.optional(requiredText('house number as text')),
    parcel_length: optionalNullableInt(),
    parcel_width: optionalNullableInt(),
    parcel_height: optionalNullableInt(),
    parcel_weight: optionalNullableInt(),
    time_slot_period_start: optionalNullableInt(),
    time_slot_period_end: optionalNullableInt(),
    service_type: optionalNullableInt(),
    addition: z.optional(z.nullable(z.string({ error: typeError('must be a string ("" or null clears it)') }))),
  })
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
