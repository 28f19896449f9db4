import { OUTCOME_NAMES, REASON_NAMES } from '../../schemas/codes.js';
import type { ParcelFieldName } from '../../schemas/parcel-fields.js';
import { parcelField } from '../../schemas/parcel-fields.js';
import { LOCATION_TYPES, SERVICE_TYPES } from '../rules.js';
import { PARCEL_STATUS_NAMES } from './common.js';
import { defineHandler } from './types.js';

const codes = (names: Readonly<Record<number, string>>) =>
  Object.entries(names).map(([code, name]) => ({ code: Number(code), name }));

/** A field's unit and the sandbox's bounds, from the field table (src/schemas/parcel-fields.ts). */
function unitOf(name: ParcelFieldName): { unit: string; min: number; max: number } {
  const field = parcelField(name);
  if (field.unit === undefined || field.bounds === undefined) throw new Error(`the field table gives ${name} no unit or bounds`);
  return { unit: field.unit, min: field.bounds.min, max: field.bounds.max };
}

/** Constant reference data; built once. */
export const REFERENCE = {
  statuses: codes(PARCEL_STATUS_NAMES),
  event_statuses: [0, 1, 2, 3],
  outcomes: codes(OUTCOME_NAMES),
  reasons: codes(REASON_NAMES),
  location_types: LOCATION_TYPES,
  service_types: SERVICE_TYPES,
  units: {
    length: unitOf('parcel_length').unit,
    weight: unitOf('parcel_weight').unit,
    time: unitOf('time_slot_period_start').unit,
    parcel_length: unitOf('parcel_length'),
    parcel_width: unitOf('parcel_width'),
    parcel_height: unitOf('parcel_height'),
    parcel_weight: unitOf('parcel_weight'),
    time_slot: unitOf('time_slot_period_start'),
  },
};

export const reference = defineHandler({
  validate: () => undefined,
  run: () => ({ status: 200, data: REFERENCE }),
});
