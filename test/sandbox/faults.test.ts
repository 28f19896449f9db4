import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, DEMO_API_KEY, SeedError, loadSeed, startSandbox, validateSeed } from '../../src/sandbox/index.js';
import { mulberry32 } from '../../src/sandbox/faults/rates.js';
import { PARCEL, TEST_SEED, call, newKey, nowS } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fault injection', () => {
  it('failRate 1: every routed request answers 500 or 503 with an envelope, and nothing is created', async () => {
    const db = join(dir, 'fail.db');
    const s = await startSandbox({ db, seed: TEST_SEED, faults: { failRate: 1, seed: 1 } });
    const seen = new Set<number>();
    try {
      for (let i = 0; i < 12; i++) {
        const r = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey() });
        expect([500, 503]).toContain(r.status);
        expect(r.body.data).toBeNull();
        expect(['internal_error', 'service_unavailable']).toContain(r.body.error.code);
        if (r.status === 503) expect(r.headers.get('retry-after')).toBe('1');
        seen.add(r.status);
      }
      expect(seen).toEqual(new Set([500, 503]));
      const unknown = await call(s.url, 'GET', '/nope');
      expect(unknown.status).toBe(404);
    } finally {
      await s.close();
    }
    const clean = await startSandbox({ db, seed: TEST_SEED });
    try {
      expect((await call(clean.url, 'GET', '/deliveries/v1/parcels')).body.data.parcels).toEqual([]);
    } finally {
      await clean.close();
    }
  });

  it('dropRate 1: the connection closes unanswered but the change is committed and replayable', async () => {
    const db = join(dir, 'drop.db');
    const idem = newKey();
    const raw = JSON.stringify(PARCEL);
    const s = await startSandbox({ db, seed: TEST_SEED, faults: { dropRate: 1, seed: 7 } });
    try {
      await expect(call(s.url, 'POST', '/deliveries/v1/parcels', { raw, idem })).rejects.toThrow();
    } finally {
      await s.close();
    }
    const clean = await startSandbox({ db, seed: TEST_SEED });
    try {
      const list = await call(clean.url, 'GET', '/deliveries/v1/parcels');
      expect(list.body.data.parcels).toHaveLength(1);
      const retry = await call(clean.url, 'POST', '/deliveries/v1/parcels', { raw, idem });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.data.entry_id).toBe(list.body.data.parcels[0].entry_id);
    } finally {
      await clean.close();
    }
  });

  it('the same fault seed gives the same sequence of faults', async () => {
    const run = async () => {
      const s = await startSandbox({ seed: TEST_SEED, faults: { failRate: 0.5, seed: 42 } });
      const statuses = [];
      try {
        for (let i = 0; i < 20; i++) statuses.push((await call(s.url, 'GET', '/deliveries/v1/reference')).status);
      } finally {
        await s.close();
      }
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.some((x) => x === 200)).toBe(true);
    expect(a.some((x) => x >= 500)).toBe(true);
    const r1 = mulberry32(3);
    const r2 = mulberry32(3);
    expect([r1(), r1(), r1()]).toEqual([r2(), r2(), r2()]);
  });

  it('latencyMs holds each answer after the work is done', async () => {
    // A database file, so the test sees the create committed while its answer is still held.
    const database = join(dir, 'latency.db');
    const s = await startSandbox({ seed: TEST_SEED, db: database, faults: { latencyMs: 1000 } });
    const committed = (): number => {
      const db = new Database(database, { readonly: true, fileMustExist: true });
      try {
        return db.prepare('SELECT COUNT(*) FROM parcels').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    try {
      const create = call(s.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey() });
      await expect.poll(committed, { timeout: 5000, interval: 10 }).toBe(1);
      // The request log records an answer as it is written: committed, and not yet answered.
      expect(s.logs()).toEqual([]);
      expect((await create).status).toBe(201);
      expect(s.logs().map((e) => [e.method, e.status])).toEqual([['POST', 201]]);
    } finally {
      await s.close();
    }
  });

  it('refuses fault rates outside 0..1', async () => {
    await expect(startSandbox({ faults: { failRate: 2 } })).rejects.toThrow(/failRate/);
  });

  it("retryAfterS sets an injected 503's Retry-After (0 is legal); outside 0..3600 or fractional it is refused", async () => {
    const s = await startSandbox({ seed: TEST_SEED, faults: { failRate: 1, seed: 1, retryAfterS: 0 } });
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => call(s.url, 'GET', '/deliveries/v1/parcels')));
      const unavailable = answers.filter((r) => r.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);
      for (const r of unavailable) expect(r.headers.get('retry-after')).toBe('0');
    } finally {
      await s.close();
    }
    await expect(startSandbox({ faults: { retryAfterS: 3601 } })).rejects.toThrow(/retryAfterS/);
    await expect(startSandbox({ faults: { retryAfterS: 0.5 } })).rejects.toThrow(/retryAfterS/);
  });
});

describe('clock offset', () => {
  it('shifts the Date header, timestamps and the five-minute rule', async () => {
    const s = await startSandbox({ seed: TEST_SEED, clockOffset: 900 });
    try {
      const created = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey() });
      const date = Date.parse(created.headers.get('date')!) / 1000;
      expect(date - nowS()).toBeGreaterThanOrEqual(895);
      expect(date - nowS()).toBeLessThanOrEqual(905);
      expect(created.body.data.created_at - nowS()).toBeGreaterThanOrEqual(895);
      const id = created.body.data.entry_id;
      const ahead = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { occurred_at: nowS() + 600 }, idem: newKey() });
      expect(ahead.status).toBe(201);
      const tooFar = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { occurred_at: nowS() + 1300 }, idem: newKey() });
      expect(tooFar.status).toBe(422);
    } finally {
      await s.close();
    }
    const plain = await startSandbox({ seed: TEST_SEED });
    try {
      const created = await call(plain.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey() });
      const ahead = await call(plain.url, 'POST', `/deliveries/v1/parcels/${created.body.data.entry_id}/events`, { body: { occurred_at: nowS() + 600 }, idem: newKey() });
      expect(ahead.status).toBe(422);
    } finally {
      await plain.close();
    }
  });
});

describe('seed', () => {
  it('the default seed has the demo organisation, couriers and key', async () => {
    expect(DEMO_API_KEY).toBe('sbx_demo_9f2c4e7a1b3d5f60');
    const s = await startSandbox();
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const r = await call(s.url, 'GET', '/account/v1/couriers', { key: DEMO_API_KEY });
      expect(r.body.data.couriers).toEqual([
        { code: 'DEMO-BIKE', name: 'Demo bikes' },
        { code: 'DEMO-VAN', name: 'Demo vans' },
      ]);
      const o = await call(s.url, 'GET', '/account/v1/overview', { key: DEMO_API_KEY });
      expect(o.body.data.organisation.name).toBe('Demo Deliveries');
      for (const path of ['/account/v1/usage', '/deliveries/v1/oracle/coverage']) {
        expect((await call(s.url, 'GET', path, { key: DEMO_API_KEY })).status).toBe(200);
      }
    } finally {
      await s.close();
    }
    expect(DEFAULT_SEED.rate_limit!.requests).toBeGreaterThanOrEqual(100_000);
  });

  it('loads a seed file; errors name the file and the path', async () => {
    const good = join(dir, 'seed.json');
    writeFileSync(good, JSON.stringify(TEST_SEED));
    expect(loadSeed(good).organisations).toHaveLength(4);
    const s = await startSandbox({ seed: good });
    try {
      expect((await call(s.url, 'GET', '/account/v1/couriers')).status).toBe(200);
    } finally {
      await s.close();
    }
    const badJson = join(dir, 'bad.json');
    writeFileSync(badJson, '{');
    expect(() => loadSeed(badJson)).toThrow(/is not JSON \(syntax error at character 2\)/);
    expect(() => loadSeed(join(dir, 'missing.json'))).toThrow(SeedError);
    const badScope = join(dir, 'scope.json');
    writeFileSync(badScope, JSON.stringify({ organisations: [{ id: 'x', name: 'X', couriers: [], keys: [{ key: 'k'.repeat(10), scopes: ['admin'] }] }] }));
    expect(() => loadSeed(badScope)).toThrow(/organisations\.0\.keys\.0\.scopes\.0/);
    await expect(startSandbox({ seed: badScope })).rejects.toThrow(SeedError);
  });

  it('validates seed objects', () => {
    expect(() => validateSeed({ organisations: [] })).toThrow(/at least one organisation/);
    expect(() => validateSeed({ organisations: [{ id: 'a', name: 'A', couriers: [], keys: [] }], extra: 1 })).toThrow(/extra/);
    const dupe = { id: 'a', name: 'A', couriers: [{ code: 'C', name: 'c' }, { code: 'C', name: 'd' }], keys: [] };
    expect(() => validateSeed({ organisations: [dupe] })).toThrow(/duplicate courier code/);
    expect(() => validateSeed({ organisations: [{ id: 'a', name: 'A', couriers: [], keys: [{ key: 'has space 123', scopes: [] }] }] })).toThrow(/keys\.0\.key/);
    expect(() => validateSeed({ organisations: [{ id: 'a', name: 'A', couriers: [], keys: [], rate_limit: { requests: 0, window_s: 60 } }] })).toThrow(/rate_limit\.requests/);
  });

  it('re-seeding an existing database upserts organisations and keeps parcels', async () => {
    const db = join(dir, 'reseed.db');
    const s1 = await startSandbox({ db, seed: TEST_SEED });
    await call(s1.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: newKey() });
    await s1.close();
    const renamed = structuredClone(TEST_SEED);
    renamed.organisations[0]!.couriers.push({ code: 'A-DRONE', name: 'A drones' });
    const s2 = await startSandbox({ db, seed: renamed });
    try {
      const couriers = await call(s2.url, 'GET', '/account/v1/couriers');
      expect(couriers.body.data.couriers.map((c: { code: string }) => c.code)).toEqual(['A-BIKE', 'A-DRONE', 'A-VAN']);
      expect((await call(s2.url, 'GET', '/deliveries/v1/parcels')).body.data.parcels).toHaveLength(1);
    } finally {
      await s2.close();
    }
  });
});
