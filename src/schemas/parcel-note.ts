/**
 * What completion may say beside a parcel id it offers (`3f1c9a2b…  in_transit 1234AB`): only
 * checked fields of the parcel as last shown — its status code (a whole number of the spec's range)
 * and a postcode of letters and digits — never free text from a service.
 */
import { PARCEL_STATUS_MAX, PARCEL_STATUS_MIN, STATUS_NAMES } from './codes.js';
import { isRecord } from './record.js';

/** A parcel id with what is known of it: `[id, status, postal_code]`, each checked or null. */
export type ParcelNote = readonly [id: string, status: number | null, postalCode: string | null];

const POSTCODE = /^[0-9A-Za-z]{2,10}$/;

function checkedStatus(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= PARCEL_STATUS_MIN && value <= PARCEL_STATUS_MAX ? value : null;
}

function checkedPostcode(value: unknown): string | null {
  return typeof value === 'string' && POSTCODE.test(value) ? value : null;
}

/** The note of a parcel as a service answered it (anything not of the checked shape is left out). */
export function noteOf(id: string, parcel: unknown): ParcelNote {
  return isRecord(parcel) ? [id, checkedStatus(parcel.status), checkedPostcode(parcel.postal_code)] : [id, null, null];
}

/** A note read back from a file written earlier (checked again: the file is only ours until it is not). */
export function readNote(entry: unknown): ParcelNote | undefined {
  if (typeof entry === 'string') return [entry, null, null];
  if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined;
  return [entry[0], checkedStatus(entry[1]), checkedPostcode(entry[2])];
}

/**
 * `in_transit 1234AB`, or undefined when nothing is known. Plain string work, no arrays: completion
 * says this of up to KNOWN_IDS_MAX ids on every key press (the array form cost ~11 ms of CPU for 1,000).
 */
export function noteText(note: ParcelNote): string | undefined {
  const [, status, postcode] = note;
  const name = status === null ? undefined : STATUS_NAMES[status];
  if (name === undefined) return postcode ?? undefined;
  return postcode === null ? name : `${name} ${postcode}`;
}
