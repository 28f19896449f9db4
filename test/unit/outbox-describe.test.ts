import { describe, expect, it } from 'vitest';
import { entrySummary, entryWhat } from '../../src/bulk/outbox-describe.js';

const ID = '0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21';

describe("an outbox entry's WHAT, from its route and body", () => {
  it('a create: courier, postcode, house number and addition', () => {
    expect(entryWhat({ method: 'POST', path: '/deliveries/v1/parcels', body: { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '99' } })).toBe('DEMO-BIKE 1234AB 99');
    expect(entryWhat({ method: 'POST', path: '/deliveries/v1/parcels', body: { courier: 'DEMO-BIKE', postal_code: '1234AB', number: '99', addition: 'A' } })).toBe('DEMO-BIKE 1234AB 99 A');
  });

  it('an event by its status name; an attempt by its outcome and reason names; a code the spec does not name as sent', () => {
    expect(entryWhat({ method: 'POST', path: `/deliveries/v1/parcels/${ID}/events`, body: { status: 1, occurred_at: 1 } })).toBe('status picked_up');
    expect(entryWhat({ method: 'POST', path: `/deliveries/v1/parcels/${ID}/attempts`, body: { outcome: 1, reason: 1 } })).toBe('outcome failed not_at_home');
    expect(entryWhat({ method: 'POST', path: `/deliveries/v1/parcels/${ID}/attempts`, body: { outcome: 9 } })).toBe('outcome 9');
  });

  it("a patch: the fields it changes, with their values", () => {
    expect(entryWhat({ method: 'PATCH', path: `/deliveries/v1/parcels/${ID}`, body: { parcel_weight: 500, addition: 'A', reference: null } })).toBe('parcel_weight=500 addition=A reference=null');
  });

  it('any other route: the method and path', () => {
    expect(entryWhat({ method: 'POST', path: '/deliveries/v1/address/validate', body: {} })).toBe('POST /deliveries/v1/address/validate');
  });

  it('one line naming an entry: the command, its parcel, what it carries', () => {
    expect(entrySummary({ command: 'events add', parcel: ID, method: 'POST', path: `/deliveries/v1/parcels/${ID}/events`, body: { status: 2 } })).toBe(`events add ${ID} status in_transit`);
    expect(entrySummary({ command: 'create', parcel: undefined, method: 'POST', path: '/deliveries/v1/parcels', body: { courier: 'DEMO-BIKE', postal_code: '1234AB', number: '99' } })).toBe('create DEMO-BIKE 1234AB 99');
  });
});
