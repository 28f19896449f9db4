import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { KEY_B, PARCEL, TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

let base: string;
let close: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'sandbox-idem-'));

beforeAll(async () => {
  const s = await startSandbox({ db: ':memory:', port: 0, seed: TEST_SEED });
  base = s.url;
  close = s.close;
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

const countParcels = async (url: string, key?: string) => {
  let n = 0;
  let cursor: string | null = null;
  do {
    const r = await call(url, 'GET', `/deliveries/v1/parcels?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key });
    n += r.body.data.parcels.length;
    cursor = r.body.data.next_cursor;
  } while (cursor);
  return n;
};

describe('idempotency', () => {
  it('replays the same request: same status, body bytes and ETag, with Idempotent-Replayed', async () => {
    const idem = newKey();
    const raw = JSON.stringify(PARCEL);
    const first = await call(base, 'POST', '/deliveries/v1/parcels', { raw, idem });
    const before = await countParcels(base);
    const second = await call(base, 'POST', '/deliveries/v1/parcels', { raw, idem });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await countParcels(base)).toBe(before);
  });

  it('409 idempotency_key_reused for a changed body (even whitespace) and for another route', async () => {
    const idem = newKey();
    const first = await call(base, 'POST', '/deliveries/v1/parcels', { raw: JSON.stringify(PARCEL), idem });
    expect(first.status).toBe(201);
    const changed = await call(base, 'POST', '/deliveries/v1/parcels', { raw: JSON.stringify({ ...PARCEL, number: '11' }), idem });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
    const spaced = await call(base, 'POST', '/deliveries/v1/parcels', { raw: JSON.stringify(PARCEL, null, 1), idem });
    expect(spaced.status).toBe(409);
    const id = first.body.data.entry_id;
    const otherRoute = await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { occurred_at: nowS() }, idem });
    expect(otherRoute.status).toBe(409);
    expect(otherRoute.body.error.code).toBe('idempotency_key_reused');
    expect(otherRoute.body.error.message).toContain('/deliveries/v1/parcels');
  });

  it('keys are scoped per organisation', async () => {
    const idem = newKey();
    const a = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem });
    const b = await call(base, 'POST', '/deliveries/v1/parcels', { key: KEY_B, body: { ...PARCEL, courier: 'B-BIKE' }, idem });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.data.entry_id).not.toBe(a.body.data.entry_id);
  });

  it('a failed (4xx) request does not use up the key: the corrected retry runs', async () => {
    const idem = newKey();
    const bad = await call(base, 'POST', '/deliveries/v1/parcels', { body: { ...PARCEL, courier: 'NOPE' }, idem });
    expect(bad.status).toBe(422);
    const good = await call(base, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem });
    expect(good.status).toBe(201);
  });

  it('20 concurrent identical POSTs create exactly one parcel; all answer 201 with the same entry_id', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    try {
      const idem = newKey();
      const raw = JSON.stringify(PARCEL);
      const replies = await Promise.all(Array.from({ length: 20 }, () => call(s.url, 'POST', '/deliveries/v1/parcels', { raw, idem })));
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(new Set(replies.map((r) => r.body.data.entry_id)).size).toBe(1);
      expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      expect(await countParcels(s.url)).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('with response latency, a duplicate sent while the first is in flight gets the same answer', async () => {
    // A database file, so the test sees the first request committed while the latency fault holds its answer.
    const dir = mkdtempSync(join(tmpdir(), 'parcels-inflight-'));
    const database = join(dir, 'sandbox.db');
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
      const idem = newKey();
      const raw = JSON.stringify(PARCEL);
      const first = call(s.url, 'POST', '/deliveries/v1/parcels', { raw, idem });
      await expect.poll(committed, { timeout: 5000, interval: 10 }).toBe(1);
      // The first is committed and its answer still held (the request log records an answer as it is
      // written): the duplicate arrives while it is in flight.
      expect(s.logs()).toEqual([]);
      const second = call(s.url, 'POST', '/deliveries/v1/parcels', { raw, idem });
      const [a, b] = await Promise.all([first, second]);
      expect(a.status).toBe(201);
      expect(a.headers.get('idempotent-replayed')).toBeNull();
      expect(b.status).toBe(201);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.body.data.entry_id).toBe(a.body.data.entry_id);
      expect(committed()).toBe(1);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('events and attempts are idempotent too', async () => {
    const p = await createParcel(base);
    const id = p.body.data.entry_id;
    const idem = newKey();
    const body = { time_attempt: nowS(), outcome: 1 };
    const a = await call(base, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { body, idem });
    const b = await call(base, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { body, idem });
    expect(b.text).toBe(a.text);
    const list = await call(base, 'GET', `/deliveries/v1/parcels/${id}/attempts`);
    expect(list.body.data.attempts).toHaveLength(1);
    const eIdem = newKey();
    const eBody = { status: 2, occurred_at: nowS() };
    const e1 = await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: eBody, idem: eIdem });
    const e2 = await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: eBody, idem: eIdem });
    expect(e1.status).toBe(201);
    expect(e2.body.data.event_id).toBe(e1.body.data.event_id);
    expect((await call(base, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events).toHaveLength(1);
  });
});

describe('persistence (file database)', () => {
  it('state and idempotency records survive a restart; re-seeding keeps parcels', async () => {
    const db = join(dir, 'state.db');
    const idem = newKey();
    const raw = JSON.stringify(PARCEL);
    const s1 = await startSandbox({ db, seed: TEST_SEED });
    const created = await call(s1.url, 'POST', '/deliveries/v1/parcels', { raw, idem });
    expect(created.status).toBe(201);
    await call(s1.url, 'POST', `/deliveries/v1/parcels/${created.body.data.entry_id}/events`, { body: { status: 1, occurred_at: nowS() }, idem: newKey() });
    await s1.close();
    await s1.close(); // closing twice is harmless

    const s2 = await startSandbox({ db, seed: TEST_SEED });
    try {
      const got = await call(s2.url, 'GET', `/deliveries/v1/parcels/${created.body.data.entry_id}`);
      expect(got.status).toBe(200);
      expect(got.body.data.status).toBe(1);
      const replay = await call(s2.url, 'POST', '/deliveries/v1/parcels', { raw, idem });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.entry_id).toBe(created.body.data.entry_id);
      expect(await countParcels(s2.url)).toBe(1);
      const usage = await call(s2.url, 'GET', '/account/v1/usage/requests');
      expect(usage.body.data.requests.length).toBeGreaterThanOrEqual(5);
    } finally {
      await s2.close();
    }
  });

  it('two sandboxes sharing one file see each other\'s changes (no stale cached parcel or ETag)', async () => {
    const db = join(dir, 'shared.db');
    const a = await startSandbox({ db, seed: TEST_SEED });
    const b = await startSandbox({ db, seed: TEST_SEED });
    try {
      const created = await createParcel(a.url);
      const id = created.body.data.entry_id;
      const viaB = await call(b.url, 'GET', `/deliveries/v1/parcels/${id}`);
      expect(viaB.headers.get('etag')).toBe(created.headers.get('etag'));
      await call(a.url, 'GET', `/deliveries/v1/parcels/${id}`); // cached in a
      const patched = await call(b.url, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { number: '99' }, headers: { 'if-match': viaB.headers.get('etag')! } });
      expect(patched.status).toBe(200);
      const viaA = await call(a.url, 'GET', `/deliveries/v1/parcels/${id}`);
      expect(viaA.body.data.number).toBe('99');
      expect(viaA.headers.get('etag')).toBe(patched.headers.get('etag'));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
