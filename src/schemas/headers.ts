import * as z from 'zod/mini';
import { utf8Bytes } from './text.js';

export const IDEMPOTENCY_KEY_MIN_BYTES = 8;
export const IDEMPOTENCY_KEY_MAX_BYTES = 128;

/** Idempotency-Key header (spec 8): 8 to 128 bytes, no leading or trailing whitespace. */
export const idempotencyKeySchema = z.string().check(
  z.refine((k) => utf8Bytes(k) >= IDEMPOTENCY_KEY_MIN_BYTES && utf8Bytes(k) <= IDEMPOTENCY_KEY_MAX_BYTES, {
    message: `must be ${IDEMPOTENCY_KEY_MIN_BYTES} to ${IDEMPOTENCY_KEY_MAX_BYTES} bytes`,
  }),
  z.refine((k) => k === k.trim(), { message: 'must not start or end with whitespace' }),
);

/** An entity tag as sent in ETag and If-Match: a quoted string, optionally weak (W/"…"). */
export const etagSchema = z.string().check(
  z.regex(/^(W\/)?"[^"]*"$/, { error: 'must be a quoted entity tag, e.g. "abc123", copied verbatim with its quotes' }),
);

/**
 * Sent by the sandbox only while its test clock was moved, sped up or frozen (never for its
 * Date-drift fault): the Date header then tells the test clock's time on purpose, and the CLI
 * trusts it for `now` without the skew bound and without a warning. Its value says how, e.g.
 * `moved`, `frozen`, `speed=600`, joined with ", ".
 */
export const TEST_CLOCK_HEADER = 'Parcels-Test-Clock';

/**
 * The service answered with its stored result of an earlier request with the same key
 * (`Idempotent-Replayed: true`, docs/sandbox.md). The spec shows no such header: without it nothing is claimed.
 */
export function isReplayed(value: string | readonly string[] | undefined): boolean {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text.trim().toLowerCase() === 'true';
}
