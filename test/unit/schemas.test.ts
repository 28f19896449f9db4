import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { idempotencyKeySchema } from '../../src/schemas/headers.js';
import { DUTCH_POSTCODE, deliveredAddressSchema, deliveryAttemptSchema, statusEventSchema } from '../../src/schemas/history.js';
import { parcelCreateSchema, parcelListQuerySchema, parcelPatchSchema } from '../../src/schemas/parcel.js';
import { parcelIdSchema } from '../../src/schemas/parcel-id.js';
import { hasLineTerminator, isPlainText, utf8Bytes } from '../../src/schemas/text.js';
import { hasControlCharacter } from '../../src/schemas/terminal-text.js';
import { validate } from '../../src/schemas/validate.js';

const NOW = 1_800_000_000;
const clock = () => NOW;
const event = statusEventSchema(clock);
const attempt = deliveryAttemptSchema(clock);
const ADDR = { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '7' };

const ok = (schema: Parameters<typeof validate>[0], v: unknown) => validate(schema, v).ok;
const firstPath = (schema: Parameters<typeof validate>[0], v: unknown) => {
  const r = validate(schema, v);
  return r.ok ? undefined : r.issues[0]?.path;
};

describe('list query', () => {
  it.each([
    [0, false],
    [1, true],
    [100, true],
    [101, false],
  ])('limit %i → %s', (limit, expected) => expect(ok(parcelListQuerySchema, { limit })).toBe(expected));
  it.each([
    [-1, false],
    [0, true],
    [5, true],
    [6, false],
  ])('status %i → %s', (status, expected) => expect(ok(parcelListQuerySchema, { status })).toBe(expected));
  it('limit defaults to 50', () => {
    const r = validate(parcelListQuerySchema, {});
    expect(r.ok && r.value.limit).toBe(50);
  });
});

describe('status event', () => {
  it.each([
    [3, true],
    [4, false],
    [0, true],
    [-1, false],
  ])('status %i → %s', (status, expected) => expect(ok(event, { status, occurred_at: NOW })).toBe(expected));
  it.each([
    [946684799, false],
    [946684800, true],
    [NOW + 300, true],
    [NOW + 301, false],
  ])('occurred_at %i → %s', (t, expected) => expect(ok(event, { occurred_at: t })).toBe(expected));
  it('status defaults to 0; occurred_at is required; unknown properties rejected', () => {
    const r = validate(event, { occurred_at: NOW });
    expect(r.ok && r.value.status).toBe(0);
    expect(firstPath(event, {})).toBe('occurred_at');
    expect(firstPath(event, { occurred_at: NOW, extra: 1 })).toBe('extra');
    expect(ok(event, { occurred_at: NOW + 0.5 })).toBe(false);
  });
});

describe('idempotency key', () => {
  it.each([
    ['x'.repeat(7), false],
    ['x'.repeat(8), true],
    ['x'.repeat(128), true],
    ['x'.repeat(129), false],
    [' ' + 'x'.repeat(10), false],
    ['x'.repeat(10) + ' ', false],
    ['\t' + 'x'.repeat(10), false],
    ['€€€', true], // 9 bytes
    ['€€', false], // 6 bytes
  ])('%j → %s', (key, expected) => expect(ok(idempotencyKeySchema, key)).toBe(expected));
});

describe('delivered address group', () => {
  it('postcode shapes', () => {
    for (const good of ['1234AB', '1234ab', '0000ZZ']) expect(DUTCH_POSTCODE.test(good)).toBe(true);
    for (const bad of ['1234 AB', '123AB', '12345AB', '1234A', 'ABCD12', '']) expect(DUTCH_POSTCODE.test(bad)).toBe(false);
    expect(firstPath(deliveredAddressSchema, { ...ADDR, delivered_postal_code: '1234 AB' })).toBe('delivered_postal_code');
  });
  it('UTF-8 byte bounds: 10×"€" = 30 bytes ok, 11×"€" = 33 bytes rejected', () => {
    expect(utf8Bytes('€'.repeat(10))).toBe(30);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_city: '€'.repeat(10) })).toBe(true);
    expect(firstPath(deliveredAddressSchema, { ...ADDR, delivered_city: '€'.repeat(11) })).toBe('delivered_city');
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_number: 'x'.repeat(32) })).toBe(true);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_number: 'x'.repeat(33) })).toBe(false);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_number: '' })).toBe(false);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_addition: '' })).toBe(true);
  });
  it.each(['\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029', '\0'])('line terminator / NUL %j rejected', (ch) => {
    for (const field of ['delivered_number', 'delivered_city', 'delivered_street', 'delivered_addition']) {
      expect(firstPath(deliveredAddressSchema, { ...ADDR, [field]: `a${ch}b` })).toBe(field);
    }
  });
  it('country only "NL"; location type 0..6; required trio; no unknown properties', () => {
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_country: 'nl' })).toBe(false);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_country: 'BE' })).toBe(false);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_location_type: 0 })).toBe(true);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_location_type: 6 })).toBe(true);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_location_type: 7 })).toBe(false);
    expect(ok(deliveredAddressSchema, { ...ADDR, delivered_location_type: -1 })).toBe(false);
    expect(firstPath(deliveredAddressSchema, { delivered_country: 'NL', delivered_number: '1' })).toBe('delivered_postal_code');
    expect(firstPath(deliveredAddressSchema, { ...ADDR, floor: 1 })).toBe('floor');
  });
});

describe('delivery attempt', () => {
  it('attempt_no: 0 ok, 1 rejected', () => {
    expect(ok(attempt, { time_attempt: NOW, attempt_no: 0 })).toBe(true);
    expect(firstPath(attempt, { time_attempt: NOW, attempt_no: 1 })).toBe('attempt_no');
  });
  it.each([
    [0, true],
    [2, true],
    [1, false],
    [3, false],
    [4, false],
  ])('delivered group with outcome %i → %s', (outcome, expected) => {
    expect(ok(attempt, { time_attempt: NOW, outcome, delivered: ADDR })).toBe(expected);
    if (!expected) expect(firstPath(attempt, { time_attempt: NOW, outcome, delivered: ADDR })).toBe('delivered');
  });
  it('ranges and defaults', () => {
    expect(ok(attempt, { time_attempt: NOW, outcome: 5 })).toBe(false);
    expect(ok(attempt, { time_attempt: NOW, reason: 10 })).toBe(true);
    expect(ok(attempt, { time_attempt: NOW, reason: 11 })).toBe(false);
    expect(ok(attempt, { time_attempt: 946684799 })).toBe(false);
    expect(ok(attempt, { time_attempt: NOW + 300 })).toBe(true);
    expect(ok(attempt, { time_attempt: NOW + 301 })).toBe(false);
    const r = validate(attempt, { time_attempt: NOW });
    expect(r.ok && [r.value.outcome, r.value.reason]).toEqual([0, 0]);
    expect(firstPath(attempt, { time_attempt: NOW, extra: true })).toBe('extra');
    expect(firstPath(attempt, { time_attempt: NOW, delivered: { ...ADDR, x: 1 } })).toBe('delivered.x');
  });
});

describe('parcel create and patch', () => {
  const base = { courier: 'C', country: 'NL', postal_code: '1234AB', number: '1' };
  it.each(['courier', 'country', 'postal_code', 'number'])('missing %s is rejected', (field) => {
    const body: Record<string, unknown> = { ...base };
    delete body[field];
    expect(firstPath(parcelCreateSchema, body)).toBe(field);
    expect(firstPath(parcelCreateSchema, { ...base, [field]: '' })).toBe(field);
  });
  it('optional fields are typed; unknown fields pass (the spec does not forbid them)', () => {
    expect(ok(parcelCreateSchema, base)).toBe(true);
    expect(ok(parcelCreateSchema, { ...base, parcel_weight: 1.5 })).toBe(false);
    expect(ok(parcelCreateSchema, { ...base, addition: 1 })).toBe(false);
    expect(ok(parcelCreateSchema, { ...base, something_new: 1 })).toBe(true);
  });
  it('patch: null clears weight (and other optional numbers), "" clears addition, empty body rejected', () => {
    expect(ok(parcelPatchSchema, { parcel_weight: null })).toBe(true);
    expect(ok(parcelPatchSchema, { parcel_length: null, service_type: null })).toBe(true);
    expect(ok(parcelPatchSchema, { addition: '' })).toBe(true);
    expect(ok(parcelPatchSchema, {})).toBe(false);
    expect(firstPath(parcelPatchSchema, { courier: null })).toBe('courier');
    expect(firstPath(parcelPatchSchema, { number: '' })).toBe('number');
  });
  it('parcel id is a UUID', () => {
    expect(ok(parcelIdSchema, '6f1c2b9a-1d2e-4f3a-8b7c-0123456789ab')).toBe(true);
    expect(ok(parcelIdSchema, 'ORD-1')).toBe(false);
  });
});

describe('rule messages where a schema has none of its own', () => {
  const schema = z.strictObject({ list: z.array(z.string()), count: z.int(), mode: z.enum(['a', 'b']), own: z.string({ error: 'must be the own message' }) });

  it('a missing field is required, a wrong type says the type, an unknown value lists the allowed ones', () => {
    expect(validate(schema, { count: 'x', mode: 'c', own: 5 })).toEqual({
      ok: false,
      issues: [
        { path: 'list', message: 'is required' },
        { path: 'count', message: 'must be a number' },
        { path: 'mode', message: 'must be one of "a", "b"' },
        { path: 'own', message: 'must be the own message' },
      ],
    });
    expect(validate(schema, { list: {}, count: 1.5, mode: 'a', own: 'x' })).toEqual({
      ok: false,
      issues: [
        { path: 'list', message: 'must be an array' },
        { path: 'count', message: 'must be an integer' },
      ],
    });
  });
});

describe('the one text-field rule in one pass', () => {
  it('refuses exactly the control characters and line terminators, for every code unit up to U+FFFF', () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      if (isPlainText(text) !== (!hasControlCharacter(text) && !hasLineTerminator(text))) differing.push(code);
    }
    expect(differing).toEqual([]);
    expect([isPlainText('Caf\u00e9 10 \u202e'), isPlainText('1\r\n2'), isPlainText('a\u2028b'), isPlainText('a\u0085b'), isPlainText('')]).toEqual([true, false, false, false, true]);
  });
});
