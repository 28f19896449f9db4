/**
 * The fields of each resource a command prints, for `--fields` completion: the spec's names (2.2–2.4)
 * as plain data, without zod, so the completion bundle stays small. The parcel's come from its field
 * table; a test holds the event and attempt lists to the request schemas of ./history.ts.
 */
import { PARCEL_FIELDS } from './parcel-fields.js';

export const PARCEL_RECORD_FIELDS: readonly string[] = ['entry_id', 'status', ...PARCEL_FIELDS.map((field) => field.name)];
export const EVENT_RECORD_FIELDS: readonly string[] = ['status', 'occurred_at'];
export const ATTEMPT_RECORD_FIELDS: readonly string[] = ['attempt_no', 'time_attempt', 'outcome', 'reason', 'delivered'];

/** The fields that hold a time in Unix seconds, in any body the CLI sends (2.2–2.4). */
export const TIME_FIELDS: readonly string[] = [...PARCEL_FIELDS.filter((field) => field.kind === 'time').map((field) => field.name), 'occurred_at', 'time_attempt'];

/** The fields of what a command prints, by its first word; none for records the spec does not show. */
export function recordFieldsOf(path: readonly string[]): readonly string[] {
  if (path[0] === 'events') return EVENT_RECORD_FIELDS;
  if (path[0] === 'attempts') return ATTEMPT_RECORD_FIELDS;
  return ['create', 'get', 'list', 'patch', 'track'].includes(path[0] ?? '') ? PARCEL_RECORD_FIELDS : [];
}
