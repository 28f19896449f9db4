import { UsageError } from '../errors.js';
import type { StateKind } from '../schemas/required-state.js';
import { STATE_FIELDS, stateDefaultNote, stateNames } from '../schemas/required-state.js';

/**
 * `events add` without --status, `attempts add` without --outcome (and no such field in --data):
 * exit 2 listing the names, nothing sent. See src/schemas/required-state.ts for why.
 */
export function requireState(kind: StateKind, body: Readonly<Record<string, unknown>>, dataGiven: boolean): void {
  const { field, flag } = STATE_FIELDS[kind];
  if (body[field] !== undefined) return;
  const where = dataGiven ? `${flag} is required, or "${field}" in --data` : `${flag} is required`;
  throw new UsageError(`${where}: ${stateNames(kind)} (nothing was sent; ${stateDefaultNote(kind)})`, flag);
}
