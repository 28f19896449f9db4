import { OUTCOME_NAMES, REASON_NAMES } from '../../schemas/codes.js';
import { LOCATION_TYPES, MAX_DIMENSION_CM, MAX_TIMESTAMP, MAX_WEIGHT_G, SERVICE_TYPES } from '../rules.js';
import { PARCEL_STATUS_NAMES } from './common.js';
import { defineHandler } from './types.js';

const codes = (names: Readonly<Record<number, string>>) =>
  Object.entries(names).map(([code, name]) => ({ code: Number(code), name }));

/** Constant reference data; built once. */
export const REFERENCE = {
  statuses: codes(PARCEL_STATUS_NAMES),
  event_statuses: [0, 1, 2, 3],
  outcomes: codes(OUTCOME_NAMES),
  reasons: codes(REASON_NAMES),
  location_types: LOCATION_TYPES,
  service_types: SERVICE_TYPES,
  units: {
    length: 'cm',
    weight: 'g',
    time: 'unix_seconds',
    parcel_length: { unit: 'cm', min: 0, max: MAX_DIMENSION_CM },
    parcel_width: { unit: 'cm', min: 0, max: MAX_DIMENSION_CM },
    parcel_height: { unit: 'cm', min: 0, max: MAX_DIMENSION_CM },
    parcel_weight: { unit: 'g', min: 0, max: MAX_WEIGHT_G },
    time_slot: { unit: 'unix_seconds', min: 946_684_800, max: MAX_TIMESTAMP },
  },
};

export const reference = defineHandler({
  validate: () => undefined,
  run: () => ({ status: 200, data: REFERENCE }),
});
