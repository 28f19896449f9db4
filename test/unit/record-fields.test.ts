/** The field names `--fields` completion offers are the request schemas' own (src/schemas/record-fields.ts). */
import { describe, expect, it } from 'vitest';
import { deliveryAttemptSchema, statusEventSchema } from '../../src/schemas/history.js';
import { ATTEMPT_RECORD_FIELDS, EVENT_RECORD_FIELDS, PARCEL_RECORD_FIELDS, recordFieldsOf } from '../../src/schemas/record-fields.js';
import { PARCEL_FIELDS } from '../../src/schemas/parcel-fields.js';

const clock = () => 1_800_000_000;

describe('record fields', () => {
  it('events and attempts: the keys of the request schemas', () => {
    expect([...EVENT_RECORD_FIELDS].sort()).toEqual(Object.keys(statusEventSchema(clock).shape).sort());
    expect([...ATTEMPT_RECORD_FIELDS].sort()).toEqual(Object.keys(deliveryAttemptSchema(clock).shape).sort());
  });

  it('parcels: entry_id, status and every field of the field table; by command', () => {
    expect(PARCEL_RECORD_FIELDS).toEqual(['entry_id', 'status', ...PARCEL_FIELDS.map((f) => f.name)]);
    expect(recordFieldsOf(['events', 'list'])).toBe(EVENT_RECORD_FIELDS);
    expect(recordFieldsOf(['attempts', 'add'])).toBe(ATTEMPT_RECORD_FIELDS);
    expect(recordFieldsOf(['track'])).toBe(PARCEL_RECORD_FIELDS);
    expect(recordFieldsOf(['couriers'])).toEqual([]);
  });
});
