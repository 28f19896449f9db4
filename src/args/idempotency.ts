import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { idempotencyKeySchema, isReplayed } from '../schemas/headers.js';
import { validate } from '../schemas/validate.js';

/** The --idempotency-key flag checked against the spec's rule, or a fresh key when not given. */
export function idempotencyKeyFlag(value: string | undefined, ctx: Context): string {
  if (value === undefined) return ctx.newIdempotencyKey();
  const checked = validate(idempotencyKeySchema, value);
  if (!checked.ok) throw new UsageError(`--idempotency-key ${checked.issues[0]?.message ?? 'is invalid'}`, '--idempotency-key');
  return value;
}

/**
 * ` (replayed)` when the service answered with a stored earlier result (`Idempotent-Replayed: true`,
 * docs/sandbox.md): the write was already applied by an earlier run with this key. The spec shows no
 * such header, so without it nothing is claimed.
 */
export function replayNote(headers: Readonly<Record<string, string>>): string {
  return isReplayed(headers['idempotent-replayed']) ? ' (replayed)' : '';
}
