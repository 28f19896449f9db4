import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_B, PARCEL, call, createParcel, newKey } from './helpers.js';
import { TEST_SEED } from './helpers.js';

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const s = await startSandbox({ db: ':memory:', port: 0, seed: TEST_SEED });
  base = s.url;
  close = s.close;
});
afterAll(async () => close());

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('POST /deliveries/v1/parcels', () => {
  it('creates a parcel: 201, full parcel, status 0, ETag and Location', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await createParcel(base, { parcel_weight: 1200, addition: 'A', service_type: 1, time_slot_period_start: 1_900_000_000, time_slot_period_end: 1_900_003_600 });
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json');
    const p = r.body.data;
    expect(p.entry_id).toMatch(UUID_V4);
    expect(p).toMatchObject({ ...PARCEL, parcel_weight: 1200, addition: 'A', service_type: 1, status: 0, parcel_length: null });
    expect(p.created_at).toBeGreaterThanOrEqual(before);
    expect(p.updated_at).toBe(p.created_at);
    expect(r.headers.get('etag')).toMatch(/^"v1-[A-Za-z0-9_-]+"$/);
    expect(r.headers.get('location')).toBe(`/deliveries/v1/parcels/${p.entry_id}`);
  });

  it('requires an Idempotency-Key (400) and checks its form', async () => {
    const missing = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('idempotency_key_required');
    expect(missing.body.error.field).toBe('Idempotency-Key');
    // Surrounding spaces cannot reach the server: HTTP strips them from header values (see unit tests).
    for (const bad of ['short7b', 'x'.repeat(129), 'é'.repeat(65)]) {
      const r = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: bad });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_idempotency_key');
    }
    expect((await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: '8bytes!!' })).status).toBe(201);
  });

  it('rejects a courier that is not the organisation\'s (422 field courier)', async () => {
    const r = await createParcel(base, { courier: 'B-BIKE' });
    expect(r.status).toBe(422);
    expect(r.body.data).toBeNull();
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.field).toBe('courier');
  });

  it.each([
    [{ courier: undefined }, 'courier'],
    [{ country: undefined }, 'country'],
    [{ postal_code: undefined }, 'postal_code'],
    [{ number: undefined }, 'number'],
    [{ number: 10 }, 'number'],
    [{ country: 'nl' }, 'country'],
    [{ country: 'NLD' }, 'country'],
    [{ postal_code: '1234 AB' }, 'postal_code'],
    [{ postal_code: '12345' }, 'postal_code'],
    [{ parcel_weight: -1 }, 'parcel_weight'],
    [{ parcel_weight: 1.5 }, 'parcel_weight'],
    [{ parcel_weight: '100' }, 'parcel_weight'],
    [{ parcel_length: 1001 }, 'parcel_length'],
    [{ service_type: 6 }, 'service_type'],
    [{ time_slot_period_start: 1_900_000_100, time_slot_period_end: 1_900_000_000 }, 'time_slot_period_end'],
    [{ colour: 'red' }, 'colour'],
    [{ addition: 'x\ny' }, 'addition'],
  ])('422 for %j on field %s', async (extra, field) => {
    const r = await createParcel(base, extra);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.details[0].field).toBe(field);
  });

  it('accepts non-NL postal codes in any shape and bounds 0 and 1000', async () => {
    const r = await createParcel(base, { country: 'BE', postal_code: '1000', parcel_length: 0, parcel_height: 1000 });
    expect(r.status).toBe(201);
  });

  it('answers 400 for bad content type, malformed JSON, empty and oversized bodies; 422 for non-objects', async () => {
    const noType = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey(), contentType: null });
    expect(noType.status).toBe(400);
    expect(noType.body.error.code).toBe('unsupported_content_type');
    const textType = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey(), contentType: 'text/plain' });
    expect(textType.status).toBe(400);
    const latin1 = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey(), contentType: 'application/json; charset=latin1' });
    expect(latin1.status).toBe(400);
    const utf8 = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey(), contentType: 'Application/JSON; charset=UTF-8' });
    expect(utf8.status).toBe(201);
    const bad = await call(base, 'POST', '/deliveries/v1/parcels', { raw: '{"courier":', idem: newKey() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_json');
    const empty = await call(base, 'POST', '/deliveries/v1/parcels', { raw: '', idem: newKey() });
    expect(empty.status).toBe(400);
    const notUtf8 = await call(base, 'POST', '/deliveries/v1/parcels', { raw: Buffer.from([0x7b, 0xff, 0x7d]), idem: newKey() });
    expect(notUtf8.status).toBe(400);
    const big = await call(base, 'POST', '/deliveries/v1/parcels', { raw: JSON.stringify({ ...PARCEL, addition: 'x'.repeat(1024 * 1024) }), idem: newKey() });
    expect(big.status).toBe(400);
    expect(big.body.error.code).toBe('body_too_large');
    for (const raw of ['[]', '"x"', '12', 'null']) {
      const r = await call(base, 'POST', '/deliveries/v1/parcels', { raw, idem: newKey() });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
    }
  });
});

describe('GET and PATCH /deliveries/v1/parcels/{id}', () => {
  it('reads a parcel with its ETag; 404 for unknown and other-organisation ids; 400 for a malformed id', async () => {
    const created = await createParcel(base);
    const id = created.body.data.entry_id;
    const r = await call(base, 'GET', `/deliveries/v1/parcels/${id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(created.body.data);
    expect(r.headers.get('etag')).toBe(created.headers.get('etag'));
    expect((await call(base, 'GET', `/deliveries/v1/parcels/${id.toUpperCase()}`)).status).toBe(200);
    const other = await call(base, 'GET', `/deliveries/v1/parcels/${id}`, { key: KEY_B });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('parcel_not_found');
    const unknown = await call(base, 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    for (const bad of ['not-a-uuid', '%E0%A4%A', '..', '%2e%2e']) {
      const r2 = await call(base, 'GET', `/deliveries/v1/parcels/${bad}`);
      expect([400, 404]).toContain(r2.status);
      expect(r2.body.data).toBeNull();
    }
    expect((await call(base, 'GET', '/deliveries/v1/parcels/not-a-uuid')).body.error.code).toBe('invalid_path_parameter');
  });

  it('PATCH needs If-Match: missing → 412 precondition_required, stale → 412 precondition_failed', async () => {
    const created = await createParcel(base, { parcel_weight: 100 });
    const id = created.body.data.entry_id;
    const missing = await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { parcel_weight: 5 } });
    expect(missing.status).toBe(412);
    expect(missing.body.error.code).toBe('precondition_required');
    const stale = await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { parcel_weight: 5 }, headers: { 'if-match': '"v0-old"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('precondition_failed');
    const unquoted = created.headers.get('etag')!.slice(1, -1);
    expect((await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { parcel_weight: 5 }, headers: { 'if-match': unquoted } })).status).toBe(412);
    const other = await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, { key: KEY_B, body: { parcel_weight: 5 }, headers: { 'if-match': created.headers.get('etag')! } });
    expect(other.status).toBe(404);
  });

  it('PATCH changes fields, clears with null and "", returns the new ETag; the old one is then stale', async () => {
    const created = await createParcel(base, { parcel_weight: 100, addition: 'B', parcel_length: 30 });
    const id = created.body.data.entry_id;
    const etag1 = created.headers.get('etag')!;
    const r = await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, {
      body: { parcel_weight: null, addition: '', number: '12', parcel_length: null, courier: 'A-VAN' },
      headers: { 'if-match': etag1 },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ entry_id: id, parcel_weight: null, addition: null, number: '12', parcel_length: null, courier: 'A-VAN' });
    const etag2 = r.headers.get('etag')!;
    expect(etag2).toMatch(/^"v2-/);
    expect(etag2).not.toBe(etag1);
    const get = await call(base, 'GET', `/deliveries/v1/parcels/${id}`);
    expect(get.headers.get('etag')).toBe(etag2);
    expect(get.body.data.updated_at).toBeGreaterThanOrEqual(created.body.data.updated_at);
    const again = await call(base, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { parcel_weight: 1 }, headers: { 'if-match': etag1 } });
    expect(again.status).toBe(412);
  });

  it.each([
    [{}, ''],
    [{ courier: null }, 'courier'],
    [{ number: '' }, 'number'],
    [{ country: null }, 'country'],
    [{ parcel_weight: 'heavy' }, 'parcel_weight'],
    [{ colour: 'red' }, 'colour'],
    [{ courier: 'B-BIKE' }, 'courier'],
    [{ postal_code: '9999' }, 'postal_code'],
  ])('PATCH %j → 422 on %s', async (body, field) => {
    const created = await createParcel(base);
    const r = await call(base, 'PATCH', `/deliveries/v1/parcels/${created.body.data.entry_id}`, { body, headers: { 'if-match': created.headers.get('etag')! } });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.field).toBe(field === '' ? undefined : field);
  });
});

describe('GET /deliveries/v1/parcels (list)', () => {
  let listBase: string;
  let listClose: () => Promise<void>;
  beforeAll(async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    listBase = s.url;
    listClose = s.close;
  });
  afterAll(async () => listClose());

  it('validates limit, status, courier and cursor', async () => {
    const cases: Array<[string, number, string]> = [
      ['limit=0', 422, 'limit'],
      ['limit=101', 422, 'limit'],
      ['limit=abc', 400, 'limit'],
      ['limit=1.5', 400, 'limit'],
      ['limit=', 400, 'limit'],
      ['status=-1', 422, 'status'],
      ['status=6', 422, 'status'],
      ['status=x', 400, 'status'],
      ['courier=B-BIKE', 422, 'courier'],
      ['cursor=%%%', 400, 'cursor'],
      ['cursor=eyJ2IjoxfQ', 400, 'cursor'],
      ['limit=1&limit=2', 400, 'limit'],
      ['colour=red', 400, 'colour'],
    ];
    for (const [q, status, field] of cases) {
      const r = await call(listBase, 'GET', `/deliveries/v1/parcels?${q}`);
      expect({ q, status: r.status, field: r.body.error?.field }).toEqual({ q, status, field });
    }
    for (const q of ['limit=1', 'limit=100', 'status=0', 'status=5', 'courier=A-VAN']) {
      expect((await call(listBase, 'GET', `/deliveries/v1/parcels?${q}`)).status).toBe(200);
    }
  });

  it('default page size 50; empty list has next_cursor null', async () => {
    const empty = await call(listBase, 'GET', '/deliveries/v1/parcels', { key: KEY_B });
    expect(empty.body.data).toEqual({ parcels: [], next_cursor: null });
    for (let i = 0; i < 55; i++) await createParcel(listBase);
    const page = await call(listBase, 'GET', '/deliveries/v1/parcels');
    expect(page.body.data.parcels).toHaveLength(50);
    expect(typeof page.body.data.next_cursor).toBe('string');
  });

  it('a walk returns every parcel that existed at its start exactly once, and none created during it', async () => {
    const all = new Set<string>();
    let cursor: string | null = null;
    const first = await call(listBase, 'GET', '/deliveries/v1/parcels?limit=100');
    const existing = new Set<string>();
    let url = '/deliveries/v1/parcels?limit=7';
    const seen: string[] = [];
    // Collect the ids that exist now with a separate full walk.
    let c: string | null = null;
    do {
      const r = await call(listBase, 'GET', `/deliveries/v1/parcels?limit=100${c ? `&cursor=${c}` : ''}`);
      for (const p of r.body.data.parcels) existing.add(p.entry_id);
      c = r.body.data.next_cursor;
    } while (c);
    expect(first.status).toBe(200);
    const createdDuring: string[] = [];
    do {
      const r = await call(listBase, 'GET', url);
      expect(r.status).toBe(200);
      for (const p of r.body.data.parcels) {
        seen.push(p.entry_id);
        all.add(p.entry_id);
      }
      const made = await createParcel(listBase);
      createdDuring.push(made.body.data.entry_id);
      cursor = r.body.data.next_cursor;
      url = `/deliveries/v1/parcels?limit=7&cursor=${cursor}`;
    } while (cursor);
    expect(seen.length).toBe(all.size);
    expect(all).toEqual(existing);
    for (const id of createdDuring) expect(all.has(id)).toBe(false);
  });

  it('filters by courier and status; data is limited to the organisation', async () => {
    await createParcel(listBase, { courier: 'A-VAN' });
    const vans = await call(listBase, 'GET', '/deliveries/v1/parcels?courier=A-VAN&limit=100');
    expect(vans.body.data.parcels.length).toBeGreaterThan(0);
    for (const p of vans.body.data.parcels) expect(p.courier).toBe('A-VAN');
    const s1 = await call(listBase, 'GET', '/deliveries/v1/parcels?status=1');
    expect(s1.body.data.parcels).toEqual([]);
    await createParcel(listBase, { courier: 'B-BIKE' }, KEY_B);
    const b = await call(listBase, 'GET', '/deliveries/v1/parcels', { key: KEY_B });
    expect(b.body.data.parcels).toHaveLength(1);
    expect(b.body.data.parcels[0].courier).toBe('B-BIKE');
  });
});

describe('routing', () => {
  it('unknown routes and methods answer 404 envelopes', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/deliveries/v1/parcels/'],
      ['GET', '/deliveries/v2/parcels'],
      ['DELETE', '/deliveries/v1/parcels'],
      ['PUT', '/account/v1/couriers'],
      ['OPTIONS', '/deliveries/v1/reference'],
      ['GET', '/deliveries//v1/parcels'],
      ['GET', '/deliveries/v1/%70arcels'],
    ] as const) {
      const r = await call(base, method, path);
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      expect(r.body).toMatchObject({ data: null, error: { code: 'route_not_found' } });
    }
    const head = await fetch(`${base}/deliveries/v1/reference`, { method: 'HEAD', headers: { authorization: `Bearer ${KEY_A}` } });
    expect(head.status).toBe(404);
  });

  it('routes without parameters refuse query parameters (400)', async () => {
    const r = await call(base, 'GET', '/account/v1/couriers?x=1');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('unknown_parameter');
  });
});
