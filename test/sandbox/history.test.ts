import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { KEY_B, TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const s = await startSandbox({ db: ':memory:', port: 0, seed: TEST_SEED });
  base = s.url;
  close = s.close;
});
afterAll(async () => close());

async function newParcel(): Promise<{ id: string; etag: string }> {
  const r = await createParcel(base);
  return { id: r.body.data.entry_id, etag: r.headers.get('etag')! };
}
const postEvent = (id: string, body: unknown, key?: string) =>
  call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body, idem: newKey(), key });
const postAttempt = (id: string, body: unknown, key?: string) =>
  call(base, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { body, idem: newKey(), key });
const etagOf = async (id: string) => (await call(base, 'GET', `/deliveries/v1/parcels/${id}`)).headers.get('etag');
const statusOf = async (id: string) => (await call(base, 'GET', `/deliveries/v1/parcels/${id}`)).body.data.status;

const ADDR = { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '7' };

describe('events', () => {
  it('stores an event (201), updates status and ETag, lists oldest first', async () => {
    const { id, etag } = await newParcel();
    const t = nowS() - 60;
    const r = await postEvent(id, { status: 2, occurred_at: t });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ entry_id: id, status: 2, occurred_at: t });
    expect(r.body.data.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.data.recorded_at).toBeGreaterThanOrEqual(t);
    expect(await statusOf(id)).toBe(2);
    expect(await etagOf(id)).not.toBe(etag);
    const d = await postEvent(id, { occurred_at: t + 1 });
    expect(d.body.data.status).toBe(0); // default status
    const list = await call(base, 'GET', `/deliveries/v1/parcels/${id}/events`);
    expect(list.status).toBe(200);
    expect(list.body.data.events.map((e: { status: number }) => e.status)).toEqual([2, 0]);
  });

  it.each([
    [{ status: 4, occurred_at: 1_700_000_000 }, 'status'],
    [{ status: -1, occurred_at: 1_700_000_000 }, 'status'],
    [{ status: 1 }, 'occurred_at'],
    [{ status: 1, occurred_at: 946684799 }, 'occurred_at'],
    [{ status: 1, occurred_at: 'now' }, 'occurred_at'],
    [{ status: 1, occurred_at: 1_700_000_000, note: 'x' }, 'note'],
  ])('422 for %j on %s', async (body, field) => {
    const { id } = await newParcel();
    const r = await postEvent(id, body);
    expect(r.status).toBe(422);
    expect(r.body.error.field).toBe(field);
  });

  it('five-minute rule: now+300 ok, now+400 rejected; 946684800 ok', async () => {
    const { id } = await newParcel();
    expect((await postEvent(id, { occurred_at: nowS() + 295 })).status).toBe(201);
    expect((await postEvent(id, { occurred_at: 946684800 })).status).toBe(201);
    const r = await postEvent(id, { occurred_at: nowS() + 400 });
    expect(r.status).toBe(422);
    expect(r.body.error.field).toBe('occurred_at');
  });

  it('needs an Idempotency-Key; 404 for unknown and another organisation\'s parcel', async () => {
    const { id } = await newParcel();
    const noKey = await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { occurred_at: nowS() } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.code).toBe('idempotency_key_required');
    expect((await postEvent(id, { occurred_at: nowS() }, KEY_B)).status).toBe(404);
    expect((await call(base, 'GET', `/deliveries/v1/parcels/${id}/events`, { key: KEY_B })).status).toBe(404);
    expect((await postEvent('00000000-0000-4000-8000-000000000000', { occurred_at: nowS() })).body.error.code).toBe('parcel_not_found');
  });

  it('returns the newest 1000 events, oldest first', async () => {
    const { id } = await newParcel();
    const base0 = 1_700_000_000;
    const sends = [];
    for (let i = 0; i < 1005; i++) sends.push(() => postEvent(id, { status: i % 4, occurred_at: base0 + i }));
    for (let i = 0; i < sends.length; i += 50) {
      const batch = await Promise.all(sends.slice(i, i + 50).map((f) => f()));
      for (const r of batch) expect(r.status).toBe(201);
    }
    const list = await call(base, 'GET', `/deliveries/v1/parcels/${id}/events`);
    const events = list.body.data.events;
    expect(events).toHaveLength(1000);
    const times = events.map((e: { occurred_at: number }) => e.occurred_at).sort((a: number, b: number) => a - b);
    expect(times[0]).toBe(base0 + 5);
    expect(times[999]).toBe(base0 + 1004);
  }, 20_000);
});

describe('attempts', () => {
  it('assigns attempt_no 1, 2, …; outcome 1/3/4 → status 5, 0/2 → status 4; ETag changes', async () => {
    const { id, etag } = await newParcel();
    const t = nowS() - 10;
    const a1 = await postAttempt(id, { time_attempt: t, outcome: 1, reason: 1 });
    expect(a1.status).toBe(201);
    expect(a1.body.data).toEqual({ attempt_no: 1, entry_id: id, outcome: 1, reason: 1, time_attempt: t, delivered: null, recorded_at: a1.body.data.recorded_at });
    expect(await statusOf(id)).toBe(5);
    const etag2 = await etagOf(id);
    expect(etag2).not.toBe(etag);
    const a2 = await postAttempt(id, { time_attempt: t, outcome: 4 });
    expect(a2.body.data.attempt_no).toBe(2);
    const a3 = await postAttempt(id, { time_attempt: t, outcome: 3, reason: 4, attempt_no: 0 });
    expect(a3.body.data.attempt_no).toBe(3);
    const a4 = await postAttempt(id, { time_attempt: t, outcome: 2, delivered: { ...ADDR, delivered_location_type: 1, delivered_city: 'Utrecht' } });
    expect(a4.status).toBe(201);
    expect(a4.body.data.delivered).toEqual({ ...ADDR, delivered_location_type: 1, delivered_city: 'Utrecht' });
    expect(await statusOf(id)).toBe(4);
    expect(await etagOf(id)).not.toBe(etag2);
    const list = await call(base, 'GET', `/deliveries/v1/parcels/${id}/attempts`);
    expect(list.body.data.attempts.map((a: { attempt_no: number }) => a.attempt_no)).toEqual([1, 2, 3, 4]);
  });

  it('outcome 0 delivers; a delivered parcel takes no events or attempts (409)', async () => {
    const { id } = await newParcel();
    expect((await postAttempt(id, { time_attempt: nowS() })).status).toBe(201);
    expect(await statusOf(id)).toBe(4);
    const e = await postEvent(id, { status: 3, occurred_at: nowS() });
    expect(e.status).toBe(409);
    expect(e.body.error.code).toBe('parcel_delivered');
    const a = await postAttempt(id, { time_attempt: nowS() });
    expect(a.status).toBe(409);
  });

  it('from not_delivered (5) an event may move to 2 or 3 only', async () => {
    const { id } = await newParcel();
    await postAttempt(id, { time_attempt: nowS(), outcome: 1 });
    const back = await postEvent(id, { status: 1, occurred_at: nowS() });
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe('invalid_transition');
    expect((await postEvent(id, { status: 3, occurred_at: nowS() })).status).toBe(201);
    expect(await statusOf(id)).toBe(3);
  });

  it.each([
    [{ time_attempt: 1_700_000_000, attempt_no: 1 }, 'attempt_no'],
    [{ time_attempt: 1_700_000_000, outcome: 5 }, 'outcome'],
    [{ time_attempt: 1_700_000_000, reason: 11 }, 'reason'],
    [{ outcome: 0 }, 'time_attempt'],
    [{ time_attempt: 1_700_000_000, outcome: 1, delivered: ADDR }, 'delivered'],
    [{ time_attempt: 1_700_000_000, outcome: 3, delivered: ADDR }, 'delivered'],
    [{ time_attempt: 1_700_000_000, outcome: 4, delivered: ADDR }, 'delivered'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_postal_code: '1234' } }, 'delivered.delivered_postal_code'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_country: 'nl' } }, 'delivered.delivered_country'],
    [{ time_attempt: 1_700_000_000, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB' } }, 'delivered.delivered_number'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_city: '€'.repeat(11) } }, 'delivered.delivered_city'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_street: 'a\u2028b' } }, 'delivered.delivered_street'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_addition: 'a\u0000' } }, 'delivered.delivered_addition'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, delivered_location_type: 7 } }, 'delivered.delivered_location_type'],
    [{ time_attempt: 1_700_000_000, delivered: { ...ADDR, floor: 2 } }, 'delivered.floor'],
    [{ time_attempt: 1_700_000_000, signed_by: 'x' }, 'signed_by'],
  ])('422 for %j on %s', async (body, field) => {
    const { id } = await newParcel();
    const r = await postAttempt(id, body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.field).toBe(field);
  });

  it('accepts 10×"€" (30 bytes) in delivered text fields', async () => {
    const { id } = await newParcel();
    const r = await postAttempt(id, { time_attempt: nowS(), delivered: { ...ADDR, delivered_street: '€'.repeat(10), delivered_addition: '' } });
    expect(r.status).toBe(201);
    expect(r.body.data.delivered.delivered_street).toBe('€'.repeat(10));
  });
});
