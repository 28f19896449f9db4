/**
 * Request field → the flag that sets it, so errors name what the user typed. Fields missing here
 * are set by `--` + the field name with dashes (`delivered_country` → `--delivered-country`).
 */
export const FLAG_FOR_FIELD: Readonly<Record<string, string>> = {
  courier: '--courier',
  country: '--country',
  postal_code: '--postal-code',
  number: '--number',
  addition: '--addition',
  parcel_length: '--length',
  parcel_width: '--width',
  parcel_height: '--height',
  parcel_weight: '--weight',
  time_slot_period_start: '--slot-start',
  time_slot_period_end: '--slot-end',
  service_type: '--service-type',
  time_attempt: '--at',
  occurred_at: '--at',
};
