import * as z from 'zod/mini';
import { DELIVERED_OUTCOMES, EVENT_STATUS_MAX } from './codes.js';
import { boundedText, intRange, typeError } from './text.js';
import type { Clock } from './time.js';
import { observationTime } from './time.js';

/** Four digits followed by two letters, e.g. 1234AB. */
export const DUTCH_POSTCODE = /^[0-9]{4}[A-Za-z]{2}$/;

/** Delivered-address group of a delivery attempt (spec 2.4); no other properties. */
export const deliveredAddressSchema = z.strictObject({
  delivered_country: z.literal('NL', { error: typeError('must be exactly "NL" (upper case)') }),
  delivered_postal_code: boundedText(1, 32).check(
    z.regex(DUTCH_POSTCODE, { error: 'must be a Dutch postcode: four digits followed by two letters' }),
  ),
  delivered_number: boundedText(1, 32),
  delivered_city: z.optional(boundedText(0, 32)),
  delivered_street: z.optional(boundedText(0, 32)),
  delivered_addition: z.optional(boundedText(0, 32)),
  delivered_location_type: z.optional(intRange(0, 6)),
});
export type DeliveredAddress = z.infer<typeof deliveredAddressSchema>;

/** Status event body (spec 2.3); no other properties. */
export function statusEventSchema(now: Clock) {
  return z.strictObject({
    status: z._default(intRange(0, EVENT_STATUS_MAX), 0),
    occurred_at: observationTime(now),
  });
}
export type StatusEventInput = z.infer<ReturnType<typeof statusEventSchema>>;

/** Delivery attempt body (spec 2.4); no other properties. */
export function deliveryAttemptSchema(now: Clock) {
  return z
    .strictObject({
      time_attempt: observationTime(now),
      outcome: z._default(intRange(0, 4), 0),
      reason: z._default(intRange(0, 10), 0),
      delivered: z.optional(deliveredAddressSchema),
      attempt_no: z.optional(z.literal(0, { error: 'must be omitted (the service assigns it); only 0 is valid' })),
    })
    .check(
      z.refine((a) => a.delivered === undefined || DELIVERED_OUTCOMES.has(a.outcome), {
        message: 'is allowed only when outcome is 0 (delivered) or 2 (delivered elsewhere)',
        path: ['delivered'],
      }),
    );
}
export type DeliveryAttemptInput = z.infer<ReturnType<typeof deliveryAttemptSchema>>;
