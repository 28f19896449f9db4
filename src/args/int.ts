import { UsageError } from '../errors.js';
import type { FlagField, VariableName } from '../schemas/flag-name.js';

/** A strict base-10 integer flag (no "1.5", "1e3", "12abc"), optionally bounded. */
export function intFlag(value: string, flag: FlagField | VariableName, bounds: { min?: number; max?: number } = {}): number {
  const trimmed = value.trim();
  if (!/^-?\d+$/.test(trimmed)) throw new UsageError(`${flag} must be an integer (got "${value}")`, flag);
  const n = Number(trimmed);
  if (!Number.isSafeInteger(n)) throw new UsageError(`${flag} is too large (got "${value}")`, flag);
  if ((bounds.min !== undefined && n < bounds.min) || (bounds.max !== undefined && n > bounds.max)) {
    const range =
      bounds.max === undefined ? `at least ${bounds.min}` : bounds.min === undefined ? `at most ${bounds.max}` : `between ${bounds.min} and ${bounds.max}`;
    throw new UsageError(`${flag} must be ${range} (got ${n})`, flag);
  }
  return n;
}
