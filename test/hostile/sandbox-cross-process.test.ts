/**
 * Two sandbox processes on one database file race on every read-check-write: PATCH on one ETag,
 * a delivering attempt, an event against a delivery, the same Idempotency-Key, usage rows, and the
 * next attempt number. Never both succeed where only one may.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARCEL, TEST_SEED, call, createParcel, newKey, nowS } from '../sandbox/helpers.js';
import type { ChildSandbox } from '../sandbox/processes.js';
import { bundleSandbox, startChild } from '../sandbox/processes.js';
import { startSandbox } from '../../src/sandbox/index.js';

const ROUNDS = 25;
let one: ChildSandbox;
let two: ChildSandbox;

beforeAll(async () => {
  await bundleSandbox();
  const db = join(mkdtempSync(join(tmpdir(), 'parcels-xproc-')), 'shared.db');
  one = await startChild({ seed: TEST_SEED, db, rateLimit: false });
  two = await startChild({ seed: TEST_SEED, db, rateLimit: false });
}, 60_000);

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

const parcelPath = (id: string) => `/deliveries/v1/parcels/${id}`;

describe('two processes on one file', () => {
  it('PATCHes with the same If-Match: exactly one 200, the other 412, and the winner\'s change is kept', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await createParcel(one.url);
      const id = created.body.data.entry_id as string;
      const etag = created.headers.get('etag') as string;
      const [a, b] = await Promise.all([
        call(one.url, 'PATCH', parcelPath(id), { body: { parcel_weight: 100 }, headers: { 'if-match': etag } }),
        call(two.url, 'PATCH', parcelPath(id), { body: { parcel_weight: 200 }, headers: { 'if-match': etag } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 412]);
      const winner = a.status === 200 ? 100 : 200;
      const after = await call(two.url, 'GET', parcelPath(id));
      expect(after.body.data.parcel_weight).toBe(winner);
      expect(after.headers.get('etag')).toBe((a.status === 200 ? a : b).headers.get('etag'));
    }
  }, 60_000);

  it("the parcel cache: a read right after the other process's commit sees it (new ETag and fields)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = (await createParcel(one.url)).body.data.entry_id as string;
      const cached = await call(one.url, 'GET', parcelPath(id));
      await call(one.url, 'GET', parcelPath(id)); // served from one's cache
      const patched = await call(two.url, 'PATCH', parcelPath(id), { body: { parcel_weight: round + 1 }, headers: { 'if-match': cached.headers.get('etag') as string } });
      expect(patched.status).toBe(200);
      const seen = await call(one.url, 'GET', parcelPath(id));
      expect(seen.headers.get('etag')).toBe(patched.headers.get('etag'));
      expect(seen.body.data.parcel_weight).toBe(round + 1);
    }
  }, 60_000);

  it("the parcel cache under load: with turns holding many requests, a read sent after the other process's commit sees it", async () => {
    // Eight connections keep process one busy, so its turns hold several requests and the reads
    // below share a turn's change check with others (intake.ts; the order of check and reads within
    // a turn is pinned down by intake.test.ts).
    const busyId = (await createParcel(one.url)).body.data.entry_id as string;
    let busy = true;
    const load = Array.from({ length: 8 }, async () => {
      let answered = 0;
      while (busy) {
        expect((await call(one.url, 'GET', parcelPath(busyId))).status).toBe(200);
        answered++;
      }
      return answered;
    });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const id = (await createParcel(two.url)).body.data.entry_id as string;
        const cached = await call(one.url, 'GET', parcelPath(id));
        const patched = await call(two.url, 'PATCH', parcelPath(id), { body: { parcel_weight: round + 1 }, headers: { 'if-match': cached.headers.get('etag') as string } });
        expect(patched.status).toBe(200);
        const seen = await call(one.url, 'GET', parcelPath(id));
        expect(seen.headers.get('etag')).toBe(patched.headers.get('etag'));
        expect(seen.body.data.parcel_weight).toBe(round + 1);
      }
    } finally {
      busy = false;
    }
    for (const answered of await Promise.all(load)) expect(answered).toBeGreaterThan(0);
  }, 60_000);

  it('delivering attempts: exactly one 201, the other 409 parcel_delivered; attempt numbers never repeat', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = (await createParcel(one.url)).body.data.entry_id as string;
      const attempt = { outcome: 0, reason: 0, time_attempt: nowS() };
      const [a, b] = await Promise.all([
        call(one.url, 'POST', `${parcelPath(id)}/attempts`, { body: attempt, idem: newKey() }),
        call(two.url, 'POST', `${parcelPath(id)}/attempts`, { body: attempt, idem: newKey() }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      expect((a.status === 409 ? a : b).body.error.code).toBe('parcel_delivered');
      const list = await call(one.url, 'GET', `${parcelPath(id)}/attempts`);
      expect(list.body.data.attempts.map((x: { attempt_no: number }) => x.attempt_no)).toEqual([1]);
    }
  }, 60_000);

  it('failed attempts from both processes get attempt numbers 1 and 2, and both are kept', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = (await createParcel(one.url)).body.data.entry_id as string;
      const attempt = { outcome: 1, reason: 0, time_attempt: nowS() };
      const [a, b] = await Promise.all([
        call(one.url, 'POST', `${parcelPath(id)}/attempts`, { body: attempt, idem: newKey() }),
        call(two.url, 'POST', `${parcelPath(id)}/attempts`, { body: attempt, idem: newKey() }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect([a.body.data.attempt_no, b.body.data.attempt_no].sort()).toEqual([1, 2]);
    }
  }, 60_000);

  it('an event racing a delivery: either the event lands first (then the delivery) or it is refused 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = (await createParcel(one.url)).body.data.entry_id as string;
      const [event, delivery] = await Promise.all([
        call(one.url, 'POST', `${parcelPath(id)}/events`, { body: { status: 2, occurred_at: nowS() }, idem: newKey() }),
        call(two.url, 'POST', `${parcelPath(id)}/attempts`, { body: { outcome: 0, reason: 0, time_attempt: nowS() }, idem: newKey() }),
      ]);
      expect(delivery.status).toBe(201);
      expect([201, 409]).toContain(event.status);
      const parcel = await call(one.url, 'GET', parcelPath(id));
      expect(parcel.body.data.status).toBe(4);
      const events = await call(two.url, 'GET', `${parcelPath(id)}/events`);
      expect(events.body.data.events).toHaveLength(event.status === 201 ? 1 : 0);
    }
  }, 60_000);

  it('the same Idempotency-Key at both: one parcel, the same answer twice', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const idem = newKey();
      const [a, b] = await Promise.all([
        call(one.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem }),
        call(two.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.text).toBe(b.text);
      expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort());
    }
  }, 60_000);

  it('usage: every request of both processes is counted once', async () => {
    const key = 'key_usage_xproc_0123456789';
    const seed = { ...TEST_SEED, organisations: [...TEST_SEED.organisations, { id: 'org_x', name: 'X', couriers: [], keys: [{ key, scopes: ['deliveries:read' as const, 'usage:read' as const] }] }] };
    const db = join(mkdtempSync(join(tmpdir(), 'parcels-xproc-')), 'usage.db');
    const [p, q] = await Promise.all([startChild({ seed, db, rateLimit: false }), startChild({ seed, db, rateLimit: false })]);
    await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? p.url : q.url, 'GET', '/account/v1/couriers', { key })));
    await Promise.all([p.close(), q.close()]);
    const reader = await startSandbox({ seed, db });
    try {
      const daily = await call(reader.url, 'GET', '/account/v1/usage', { key });
      expect(daily.body.data.days.reduce((n: number, d: { requests: number }) => n + d.requests, 0)).toBe(40);
    } finally {
      await reader.close();
    }
  }, 60_000);
});
