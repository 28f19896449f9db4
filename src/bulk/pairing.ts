import { PAIRING_PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { LineRequest } from './build.js';
import { fnv } from './journal/tag.js';
import type { BulkKind } from './types.js';

/**
 * Which parcel a line is about, as a 32-bit tag kept with its confirmation: for a create line its
 * courier and address (PAIRING_PARCEL_FIELDS), for an event or attempt line its parcel (entry_id).
 * Lines are paired with a batch by content (their keys, keys.ts), never by this tag: it only tells
 * an edited line from a new one. A line the journal does not hold is edited when a confirmed request
 * that no line of the input asks for any more had the same line number and the same tag (the same
 * parcel, with other fields changed); any other new line is new. Never 0 (0: not known).
 */
export function pairTag(kind: BulkKind, request: Pick<LineRequest, 'fields' | 'parcel'>): number {
  if (kind !== 'create') return fnv(request.parcel ?? '') || 1;
  // Every line builds one (a million-line import): a plain loop, no array or JSON text per line.
  let about = '';
  for (const name of PAIRING_PARCEL_FIELDS) {
    const value = request.fields[name];
    about += `${typeof value === 'string' ? value : JSON.stringify(value ?? null)}\0`;
  }
  return fnv(about) || 1;
}
