import { UsageError } from '../errors.js';
import type { FlagName } from '../schemas/flag-name.js';

/** A share flag (`--fail-rate 0.1`): a number from 0 to 1; undefined when not given. */
export function shareFlag(value: string | undefined, flag: FlagName): number | undefined {
  if (value === undefined) return undefined;
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new UsageError(`${flag} must be a number from 0 to 1 (got "${value}")`, flag);
  return p;
}
