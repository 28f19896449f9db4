import { OUTCOME_NAMES, STATUS_NAMES } from './codes.js';
import type { FlagName } from './flag-name.js';

/**
 * A deliberate difference from the API: the spec lets a status event leave out `status` and an
 * attempt leave out `outcome`, both defaulting to 0, and 0 is "registered" (an in-transit parcel set
 * back) and "delivered" (final: the parcel takes nothing more). A person who presses Enter too early
 * must not change a parcel's state, so the CLI requires the field: a flag, a --data field or a bulk
 * line's column. `parcels api` sends what it is given.
 */
export const STATE_FIELDS = {
  events: { field: 'status', flag: '--status', names: STATUS_NAMES },
  attempts: { field: 'outcome', flag: '--outcome', names: OUTCOME_NAMES },
} as const satisfies Record<string, { field: string; flag: FlagName; names: Readonly<Record<number, string>> }>;

export type StateKind = keyof typeof STATE_FIELDS;

/** `0 registered, 1 picked_up, …`: the values a missing state field may take. */
export function stateNames(kind: StateKind): string {
  return Object.entries(STATE_FIELDS[kind].names)
    .map(([code, name]) => `${code} ${name}`)
    .join(', ');
}

/** Why the field is required, in the words of what the API's default would do. */
export function stateDefaultNote(kind: StateKind): string {
  return kind === 'events' ? "the API's default, 0 registered, would set the parcel back" : "the API's default, 0 delivered, would close the parcel for good";
}
