/**
 * Sandbox-only rules for parcel input. The spec leaves bounds, units and formats of parcel fields
 * "not shown"; the shared schemas in src/schemas/ hold only the spec's rules (the CLI uses them and
 * must not refuse what a real service might accept). The sandbox is stricter, to surface client
 * bugs early; every choice here is listed in docs/sandbox.md.
 */
import * as z from 'zod/mini';
import { NL_POSTCODE_MESSAGE, wrongDutchPostcode } from '../schemas/parcel.js';
import { boundedText, intRange, typeError } from '../schemas/text.js';
import { MIN_OBSERVATION_TIME } from '../schemas/time.js';
import type { FieldIssue } from '../schemas/validate.js';
import type { ParcelFields } from './store/types.js';

/** Dimensions in centimetres: 0 to 1000. */
export const MAX_DIMENSION_CM = 1000;
/** Weight in grams: 0 to 1,000,000 (one tonne). */
export const MAX_WEIGHT_G = 1_000_000;
/** Time slots: 2000-01-01 to 2100-01-01, Unix seconds. */
export const MAX_TIMESTAMP = 4_102_444_800;
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

const text = (max: number) => boundedText(1, max);
const country = () =>
  z.string({ error: typeError('must be a string') }).check(z.regex(COUNTRY, { error: 'must be a two-letter upper-case country code, e.g. NL' }));
const dim = () => intRange(0, MAX_DIMENSION_CM);
const weight = () => intRange(0, MAX_WEIGHT_G);
const ts = () => intRange(MIN_OBSERVATION_TIME, MAX_TIMESTAMP);
const service = () => intRange(0, SERVICE_TYPES.length - 1);

/** Create body in the sandbox: the spec's fields with bounds; unknown fields rejected. */
export const sandboxCreateSchema = z.strictObject({
  courier: text(64),
  country: country(),
  postal_code: text(16),
  number: text(16),
  addition: z.optional(boundedText(0, 16)),
  parcel_length: z.optional(dim()),
  parcel_width: z.optional(dim()),
  parcel_height: z.optional(dim()),
  parcel_weight: z.optional(weight()),
  time_slot_period_start: z.optional(ts()),
  time_slot_period_end: z.optional(ts()),
  service_type: z.optional(service()),
});

/** Change body in the sandbox: null clears an optional field, "" or null clears addition. */
export const sandboxPatchSchema = z.strictObject({
  courier: z.optional(text(64)),
  country: z.optional(country()),
  postal_code: z.optional(text(16)),
  number: z.optional(text(16)),
  addition: z.optional(z.nullable(boundedText(0, 16))),
  parcel_length: z.optional(z.nullable(dim())),
  parcel_width: z.optional(z.nullable(dim())),
  parcel_height: z.optional(z.nullable(dim())),
  parcel_weight: z.optional(z.nullable(weight())),
  time_slot_period_start: z.optional(z.nullable(ts())),
  time_slot_period_end: z.optional(z.nullable(ts())),
  service_type: z.optional(z.nullable(service())),
});

/** Rules across fields, checked on the complete parcel after a create or a change. */
export function crossFieldIssues(p: ParcelFields, couriers: ReadonlySet<string>): FieldIssue[] {
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
