import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_R, TEST_SEED, call, createParcel, newKey } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-testclock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const START_S = START / 1000;
const H = 3_600_000;
const D = 24 * H;

/** A sandbox on hand-driven time sources: wall and elapsed time move only when the test moves them. */
async function benchAt(extra: Parameters<typeof startSandbox>[0] = {}) {
  const time = manualTime(START);
  const s = await startSandbox({ seed: TEST_SEED, time, ...extra });
  return { s, time };
}

describe('the test clock: every data-time rule follows it', () => {
  it('the Date header and assigned timestamps (created_at, recorded_at)', async () => {
    const { s } = await benchAt();
    try {
      expect(s.clock.advance(36 * H).now).toBe('2026-11-04T00:00:00.000Z');
      const created = await createParcel(s.url);
      expect(created.headers.get('date')).toBe('Wed, 04 Nov 2026 00:00:00 GMT');
      expect(created.body.data.created_at).toBe(START_S + 36 * 3600);
      const id = created.body.data.entry_id as string;
      s.clock.advance(H);
      const event = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { status: 1, occurred_at: START_S }, idem: newKey() });
      expect(event.body.data.recorded_at).toBe(START_S + 37 * 3600);
    } finally {
      await s.close();
    }
  });

  it('the five-minute rule: an observation an hour ahead is refused until the clock reaches it', async () => {
    const { s } = await benchAt();
    try {
      const id = (await createParcel(s.url)).body.data.entry_id as string;
      const body = { status: 1, occurred_at: START_S + 3600 };
      const early = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body, idem: newKey() });
      expect(early.status).toBe(422);
      expect(early.body.error.message).toBe('occurred_at must not be more than five minutes in the future');
      s.clock.advance(55 * 60_000);
      expect((await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body, idem: newKey() })).status).toBe(201);
    } finally {
      await s.close();
    }
  });

  it('usage days: a request drops out of the 30-day windows 30 days later', async () => {
    const { s } = await benchAt();
    try {
      await call(s.url, 'GET', '/account/v1/couriers');
      const today = await call(s.url, 'GET', '/account/v1/usage');
      expect(today.body.data.days.at(-1)).toEqual({ date: '2026-11-02', requests: 1, errors: 0 });
      s.clock.advance(30 * D + 1000);
      const later = await call(s.url, 'GET', '/account/v1/usage');
      expect(later.body.data.days[0].date).toBe('2026-11-03');
      expect(later.body.data.days.map((d: { requests: number }) => d.requests)).toEqual(new Array(30).fill(0));
      const recent = await call(s.url, 'GET', '/account/v1/usage/requests');
      expect(recent.body.data.requests).toEqual([{ method: 'GET', path: '/account/v1/usage', status: 200, at: START_S + 30 * 86_400 + 1 }]);
    } finally {
      await s.close();
    }
  });

  it('idempotency retention: a key is reusable with another body 24 hours later, not before', async () => {
    const { s } = await benchAt();
    try {
      const idem = newKey();
      const first = { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1' };
      const second = { ...first, number: '2' };
      expect((await call(s.url, 'POST', '/deliveries/v1/parcels', { body: first, idem })).status).toBe(201);
      s.clock.advance(23 * H);
      expect((await call(s.url, 'POST', '/deliveries/v1/parcels', { body: second, idem })).body.error.code).toBe('idempotency_key_reused');
      s.clock.advance(H);
      const reused = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: second, idem });
      expect(reused.status).toBe(201);
      expect(reused.body.data.number).toBe('2');
    } finally {
      await s.close();
    }
  });

  it('key expiry and oracle days follow the clock', async () => {
    const { s } = await benchAt();
    try {
      const id = (await createParcel(s.url)).body.data.entry_id as string;
      await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { status: 1, occurred_at: START_S }, idem: newKey() });
      s.clock.advance(2 * D);
      const activity = await call(s.url, 'GET', '/deliveries/v1/oracle/activity?days=3');
      expect(activity.body.data.days).toEqual([
        { date: '2026-11-02', events: 1, attempts: 0 },
        { date: '2026-11-03', events: 0, attempts: 0 },
        { date: '2026-11-04', events: 0, attempts: 0 },
      ]);
      s.clock.set('2030-01-01T00:00:00Z'); // KEY_A expires at 1893456000 = 2030-01-01T00:00:00Z
      const expired = await call(s.url, 'GET', '/account/v1/couriers', { key: KEY_A });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('expired_credentials');
    } finally {
      await s.close();
    }
  });

  it('rate-limit windows run on elapsed time plus the clock\'s moves: a frozen clock never locks out, an advance moves past a window', async () => {
    const { s, time } = await benchAt({ frozen: true });
    try {
      const couriers = async () => (await call(s.url, 'GET', '/account/v1/couriers', { key: KEY_R })).status;
      for (let i = 0; i < 3; i++) expect(await couriers()).toBe(200);
      expect(await couriers()).toBe(429);
      // Frozen data time: the window still ends on elapsed time.
      time.advanceElapsed(60_000);
      for (let i = 0; i < 3; i++) expect(await couriers()).toBe(200);
      expect(await couriers()).toBe(429);
      // A test moves past the window instead of sleeping through it.
      s.clock.advance(D);
      const again = await call(s.url, 'GET', '/account/v1/couriers', { key: KEY_R });
      expect(again.status).toBe(200);
      expect(again.headers.get('date')).toBe('Tue, 03 Nov 2026 12:00:00 GMT');
    } finally {
      await s.close();
    }
  });
});

describe('the test clock: control', () => {
  it('moves forward only; frozen stands still; speed runs it N times real time; the offset adds on top', async () => {
    const { s, time } = await benchAt({ frozen: true, clockOffset: 60 });
    try {
      expect(s.clock.status()).toEqual({ now_ms: START + 60_000, now: '2026-11-02T12:01:00.000Z', frozen: true, speed: 1 });
      time.advance(10 * 60_000);
      expect(s.clock.now()).toBe(START + 60_000);
      expect(() => s.clock.set(START)).toThrow('the clock only moves forward: 2026-11-02T12:00:00.000Z is before the sandbox\'s now, 2026-11-02T12:01:00.000Z');
      expect(() => s.clock.advance(-1)).toThrow('the clock only moves forward');
      s.clock.set(new Date('2026-12-01T09:00:00Z'));
      expect(s.clock.now()).toBe(Date.UTC(2026, 11, 1, 9));
      s.clock.resume();
      s.clock.setSpeed(600);
      time.advance(1000);
      expect(s.clock.now()).toBe(Date.UTC(2026, 11, 1, 9, 10));
    } finally {
      await s.close();
    }
  });

  it('is stored in the database: it survives a restart and every sandbox on the file sees the same time', async () => {
    const db = join(dir, 'shared.db');
    const one = await startSandbox({ db, seed: TEST_SEED, frozen: true });
    const two = await startSandbox({ db, seed: TEST_SEED });
    try {
      one.clock.set('2031-05-01T08:00:00Z');
      expect(two.clock.status()).toEqual({ now_ms: Date.UTC(2031, 4, 1, 8), now: '2031-05-01T08:00:00.000Z', frozen: true, speed: 1 });
      const created = await call(two.url, 'POST', '/deliveries/v1/parcels', { key: KEY_A, body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '3' }, idem: newKey() });
      // KEY_A expired in 2030 on the shared clock: the other process sees the time too.
      expect(created.body.error.code).toBe('expired_credentials');
    } finally {
      await one.close();
      await two.close();
    }
    const again = await startSandbox({ db, seed: TEST_SEED });
    try {
      expect(again.clock.now()).toBe(Date.UTC(2031, 4, 1, 8));
    } finally {
      await again.close();
    }
  });
});
