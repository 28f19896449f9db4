import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeedObject } from '../../src/sandbox/index.js';
import { MAX_TENANTS, TenantError, manualTime, startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_B, TEST_SEED, call, createParcel, newKey } from './helpers.js';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const START_S = START / 1000;

async function parcelIds(base: string, key = KEY_A): Promise<string[]> {
  const page = await call(base, 'GET', '/deliveries/v1/parcels', { key });
  expect(page.status).toBe(200);
  return (page.body.data.parcels as Array<{ entry_id: string }>).map((p) => p.entry_id);
}

describe('tenants', () => {
  it('are whole sandboxes of their own at /t/<name>: parcels, clock, log and keys apart from the sandbox and each other', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    const admin = s.adminToken as string;
    try {
      const created = await call(s.url, 'POST', '/_sandbox/v1/tenants', { key: admin, body: { name: 'file-a' } });
      expect([created.status, created.body]).toEqual([201, { data: { name: 'file-a', path: '/t/file-a', created_at: '2026-11-02T12:00:00.000Z' } }]);
      const b = s.tenants.create('file-b', { seed: { organisations: [{ id: 'solo', name: 'Solo', couriers: [{ code: 'S-1', name: 'S' }], keys: [{ key: 'solo_key_0123456789', scopes: ['deliveries:read', 'deliveries:write'] }] }] } });
      expect(b.url).toBe(`${s.url}/t/file-b`);
      const a = `${s.url}/t/file-a`;

      const createdInA = await createParcel(a);
      const inA = createdInA.body.data.entry_id as string;
      // Its Location names the parcel at the tenant's base URL.
      expect(createdInA.headers.get('location')).toBe(`/t/file-a/deliveries/v1/parcels/${inA}`);
      const createdInRoot = await createParcel(s.url);
      const inRoot = createdInRoot.body.data.entry_id as string;
      expect(createdInRoot.headers.get('location')).toBe(`/deliveries/v1/parcels/${inRoot}`);
      expect(await parcelIds(a)).toEqual([inA]);
      expect(await parcelIds(s.url)).toEqual([inRoot]);
      expect((await call(a, 'GET', `/deliveries/v1/parcels/${inRoot}`)).status).toBe(404);
      // file-b has its own seed: the sandbox's keys are unknown there, its own key works.
      expect((await call(b.url, 'GET', '/deliveries/v1/parcels', { key: KEY_A })).status).toBe(401);
      expect(await parcelIds(b.url, 'solo_key_0123456789')).toEqual([]);
      expect((await call(s.url, 'GET', '/deliveries/v1/parcels', { key: 'solo_key_0123456789' })).status).toBe(401);

      // Its own clock, moved through its own admin route with the same admin token.
      const moved = await call(a, 'POST', '/_sandbox/v1/clock/advance', { key: admin, body: { by: '2d' } });
      expect(moved.body.data.now).toBe('2026-11-04T12:00:00.000Z');
      expect((await call(s.url, 'GET', '/_sandbox/v1/clock', { key: admin })).body.data.now).toBe('2026-11-02T12:00:00.000Z');
      expect(b.clock.status().now).not.toBe('2026-11-04T12:00:00.000Z');

      // Its own request log, on its own paths (the prefix taken off).
      const logA = (await call(a, 'GET', '/_sandbox/v1/logs', { key: admin })).body.data.entries as Array<{ method: string; path: string }>;
      expect(logA.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /deliveries/v1/parcels', 'GET /deliveries/v1/parcels', 'GET /deliveries/v1/parcels/' + inRoot]);
      expect(s.logs().map((e) => `${e.method} ${e.path}`)).toEqual(['POST /deliveries/v1/parcels', 'GET /deliveries/v1/parcels', 'GET /deliveries/v1/parcels']);
      expect((await call(a, 'GET', '/_sandbox/health', { key: null })).status).toBe(200);
      // Its API description names its own base URL.
      expect(((await (await fetch(`${a}/openapi.json`)).json()) as { servers: Array<{ variables: { base_url: { default: string } } }> }).servers[0]?.variables.base_url.default).toBe(a);

      expect(s.tenants.list().map((t) => t.name)).toEqual(['file-a', 'file-b']);
      expect((await call(s.url, 'GET', '/_sandbox/v1/tenants', { key: admin })).body.data.tenants.map((t: { path: string }) => t.path)).toEqual(['/t/file-a', '/t/file-b']);
    } finally {
      await s.close();
    }
  });

  it('refuse bad names, a taken name, a 65th tenant, a bad seed, and tenants inside a tenant; removal closes one', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    const admin = s.adminToken as string;
    const create = (body: unknown) => call(s.url, 'POST', '/_sandbox/v1/tenants', { key: admin, body });
    try {
      const bad = await create({ name: 'Upper_Case' });
      expect([bad.status, bad.body.error]).toEqual([
        422,
        {
          code: 'validation_failed',
          message: 'a tenant\'s name must be 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (got "Upper_Case")',
          field: 'name',
          details: [{ field: 'name', message: 'a tenant\'s name must be 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (got "Upper_Case")' }],
        },
      ]);
      expect((await create({ name: 'x'.repeat(41) })).status).toBe(422);
      expect((await create({ name: '-x' })).status).toBe(422);
      expect((await create({ name: 'ok', colour: 'red' })).body.error).toEqual({ code: 'validation_failed', message: 'colour is not an allowed field', field: 'colour', details: [{ field: 'colour', message: 'is not an allowed field' }] });
      const badSeed = await create({ name: 'ok', seed: { organisations: [] } });
      expect([badSeed.status, badSeed.body.error.details]).toEqual([422, [{ field: 'seed.organisations', message: 'must list at least one organisation' }]]);
      const tokenAsKey = await create({ name: 'ok', seed: { organisations: [{ id: 'x', name: 'X', couriers: [], keys: [{ key: admin, scopes: [] }] }] } });
      expect([tokenAsKey.status, tokenAsKey.body.error.field]).toEqual([422, 'seed']);

      expect((await create({ name: 'ok' })).status).toBe(201);
      const taken = await create({ name: 'ok' });
      expect([taken.status, taken.body.error]).toEqual([409, { code: 'tenant_exists', message: 'a tenant named "ok" exists already; remove it first, or choose another name' }]);
      expect(() => s.tenants.create('ok')).toThrow(TenantError);

      const nested = await call(`${s.url}/t/ok`, 'POST', '/_sandbox/v1/tenants', { key: admin, body: { name: 'inner' } });
      expect([nested.status, nested.body.error.code]).toEqual([404, 'route_not_found']);
      expect((await call(`${s.url}/t/ok/t/inner`, 'GET', '/deliveries/v1/parcels')).status).toBe(404);
      const unknown = await call(`${s.url}/t/nobody`, 'GET', '/deliveries/v1/parcels');
      expect([unknown.status, unknown.body.error]).toEqual([404, { code: 'tenant_not_found', message: 'no tenant named "nobody" on this sandbox; create it with POST /_sandbox/v1/tenants' }]);

      for (let n = 1; n < MAX_TENANTS; n++) s.tenants.create(`t${n}`);
      const full = await create({ name: 'one-more' });
      expect([full.status, full.body.error]).toEqual([409, { code: 'too_many_tenants', message: 'this sandbox holds 64 tenants, the most it takes; remove one first' }]);

      const okUrl = `${s.url}/t/ok`;
      const parcel = (await createParcel(okUrl)).body.data.entry_id as string;
      const removed = await call(s.url, 'DELETE', '/_sandbox/v1/tenants/ok', { key: admin });
      expect([removed.status, removed.body.data.removed.name]).toEqual([200, 'ok']);
      expect((await call(okUrl, 'GET', `/deliveries/v1/parcels/${parcel}`)).body.error.code).toBe('tenant_not_found');
      const again = await call(s.url, 'DELETE', '/_sandbox/v1/tenants/ok', { key: admin });
      expect([again.status, again.body.error.code]).toEqual([404, 'tenant_not_found']);
      await expect(s.tenants.remove('ok')).rejects.toThrow(TenantError);
      // A name freed is free again, with nothing of the tenant before.
      const fresh = s.tenants.create('ok');
      expect(await parcelIds(fresh.url)).toEqual([]);
      await fresh.close();
      expect(s.tenants.list().some((t) => t.name === 'ok')).toBe(false);
    } finally {
      await s.close();
    }
    // Closing the sandbox closed its tenants; it takes no new ones.
    expect(s.tenants.list()).toEqual([]);
    expect(() => s.tenants.create('late')).toThrow('the sandbox is closed; it takes no new tenants');
  });
});

describe('reset', () => {
  it('empties the sandbox back to its seed and sets the moved clock back to real time', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    const admin = s.adminToken as string;
    try {
      const key = newKey();
      const first = await createParcel(s.url, {}, KEY_A);
      expect(first.status).toBe(201);
      const idem = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1' }, idem: key });
      s.scenarios.assign(idem.body.data.entry_id as string, 'happy');
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/advance', { key: admin, body: { by: '2d' } })).status).toBe(200);
      expect((await call(s.url, 'GET', '/account/v1/couriers')).headers.get('parcels-test-clock')).toBe('moved');

      const reset = await call(s.url, 'POST', '/_sandbox/v1/reset', { key: admin, body: {} });
      expect(reset.status).toBe(200);
      expect(Object.keys(reset.body.data)).toEqual(['clock']);
      expect(Math.abs(reset.body.data.clock.now_ms - Date.now())).toBeLessThan(60_000);
      expect([reset.body.data.clock.frozen, reset.body.data.clock.speed]).toEqual([false, 1]);

      expect(await parcelIds(s.url)).toEqual([]);
      expect((await call(s.url, 'GET', '/account/v1/couriers')).headers.get('parcels-test-clock')).toBeNull();
      expect((await call(s.url, 'GET', '/account/v1/overview')).body.data).toMatchObject({ parcels: { total: 0 } });
      // The idempotency record is gone: the same key creates a new parcel.
      const replay = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1' }, idem: key });
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect(replay.body.data.entry_id).not.toBe(idem.body.data.entry_id);
      // The organisations and keys of the seed stay.
      expect((await call(s.url, 'GET', '/deliveries/v1/parcels', { key: KEY_B })).status).toBe(200);
      expect(s.reset().frozen).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('on a database file is seen by every sandbox on the file: data gone, clock at real time', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'parcels-reset-')), 'sandbox.db');
    const a = await startSandbox({ seed: TEST_SEED, db });
    const b = await startSandbox({ seed: TEST_SEED, db });
    try {
      await createParcel(a.url);
      a.clock.advance(86_400_000);
      expect((await call(b.url, 'GET', '/account/v1/couriers')).headers.get('parcels-test-clock')).toBe('moved');
      b.reset();
      expect(await parcelIds(a.url)).toEqual([]);
      expect((await call(a.url, 'GET', '/account/v1/couriers')).headers.get('parcels-test-clock')).toBeNull();
      expect(Math.abs(a.clock.now() - Date.now())).toBeLessThan(60_000);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('under /t/<name> resets that tenant only; the rate-limit windows start afresh', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true, rateLimit: { requests: 2, window_s: 60 } });
    const admin = s.adminToken as string;
    try {
      const t = s.tenants.create('one');
      await createParcel(t.url);
      await createParcel(s.url);
      expect((await call(t.url, 'GET', '/deliveries/v1/parcels')).status).toBe(200);
      expect((await call(t.url, 'GET', '/deliveries/v1/parcels')).status).toBe(429);
      expect((await call(t.url, 'POST', '/_sandbox/v1/reset', { key: admin, body: {} })).status).toBe(200);
      expect((await call(t.url, 'GET', '/deliveries/v1/parcels')).body.data.parcels).toEqual([]);
      expect((await call(s.url, 'GET', '/deliveries/v1/parcels')).body.data.parcels).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

describe('a seed with parcels', () => {
  const seedWithParcels = (parcels: unknown[]): SeedObject => {
    const [a, ...rest] = TEST_SEED.organisations;
    return { ...TEST_SEED, organisations: [{ ...(a as SeedObject['organisations'][number]), parcels } as SeedObject['organisations'][number], ...rest] };
  };

  it('stores a parcel in transit with two events as the API would, and again after a reset', async () => {
    const id = '3b1f0c9e-8a2d-4c5e-9f7a-1b2c3d4e5f60';
    const seed = seedWithParcels([
      { entry_id: id, courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '7', events: [{ status: 1, occurred_at: START_S - 7200 }, { status: 2, occurred_at: START_S - 3600 }] },
      { courier: 'A-VAN', country: 'NL', postal_code: '1234AB', number: '8', attempts: [{ outcome: 1, reason: 2, time_attempt: START_S - 600 }] },
    ]);
    const s = await startSandbox({ seed, time: manualTime(START), frozen: true });
    try {
      const parcel = await call(s.url, 'GET', `/deliveries/v1/parcels/${id}`);
      expect(parcel.body.data).toMatchObject({ entry_id: id, status: 2, courier: 'A-BIKE', number: '7' });
      const events = (await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events as Array<{ status: number; occurred_at: number }>;
      expect(events.map((e) => [e.status, e.occurred_at])).toEqual([
        [1, START_S - 7200],
        [2, START_S - 3600],
      ]);
      const ids = await parcelIds(s.url);
      expect(ids).toHaveLength(2);
      const other = (await call(s.url, 'GET', `/deliveries/v1/parcels/${ids[1]}`)).body.data;
      expect(other.status).toBe(5);
      s.reset();
      expect(await parcelIds(s.url)).toEqual(ids);
      expect((await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  it('is refused with the path of what the API would refuse', async () => {
    await expect(startSandbox({ seed: seedWithParcels([{ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1', colour: 'red' }]) })).rejects.toThrow(
      'invalid seed:\n  organisations.0.parcels.0.colour: is not an allowed field',
    );
    await expect(startSandbox({ seed: seedWithParcels([{ courier: 'B-BIKE', country: 'NL', postal_code: '1234', number: '1' }]) })).rejects.toThrow(
      'invalid seed:\n  organisations.0.parcels.0.courier: is not a registered courier code of your organisation (A-BIKE, A-VAN)\n  organisations.0.parcels.0.postal_code: must be a Dutch postcode (four digits followed by two letters) when country is NL',
    );
    const afterDelivery = seedWithParcels([
      { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1', attempts: [{ outcome: 0, time_attempt: START_S - 600 }], events: [{ status: 2, occurred_at: START_S - 60 }] },
    ]);
    await expect(startSandbox({ seed: afterDelivery, time: manualTime(START) })).rejects.toThrow(
      'invalid seed:\n  organisations.0.parcels.0.events.0: the parcel is delivered (status 4, terminal); it takes no further events or attempts (parcel_delivered)',
    );
  });
});
