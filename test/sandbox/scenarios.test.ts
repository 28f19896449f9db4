import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { TEST_SEED, call, createParcel } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const START_S = START / 1000;
const M = 60;
const H = 3600;

/** A parcel's life relative to START: [status, occurred_at, recorded_at] per event, [outcome, reason, time_attempt, recorded_at] per attempt. */
async function lifeOf(url: string, id: string) {
  const parcel = await call(url, 'GET', `/deliveries/v1/parcels/${id}`);
  const events = (await call(url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events as Array<Record<string, number>>;
  const attempts = (await call(url, 'GET', `/deliveries/v1/parcels/${id}/attempts`)).body.data.attempts as Array<Record<string, number>>;
  return {
    status: parcel.body.data.status as number,
    version: /^"v(\d+)-/.exec(parcel.headers.get('etag') ?? '')?.[1],
    events: events.map((e) => [e.status, (e.occurred_at as number) - START_S, (e.recorded_at as number) - START_S]),
    attempts: attempts.map((a) => [a.outcome, a.reason, (a.time_attempt as number) - START_S, (a.recorded_at as number) - START_S]),
  };
}

/** Creates a parcel whose postal code picks a built-in scenario, then lets four days pass. */
async function livedScenario(postalCode: string, opts: SandboxOptions = {}) {
  const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true, ...opts });
  try {
    const id = (await createParcel(s.url, { postal_code: postalCode })).body.data.entry_id as string;
    s.clock.advance(4 * 24 * H * 1000);
    return await lifeOf(s.url, id);
  } finally {
    await s.close();
  }
}

const ROAD = [
  [1, 15 * M, 15 * M],
  [2, 75 * M, 75 * M],
  [3, 4 * H + 15 * M, 4 * H + 15 * M],
];

describe('built-in scenarios: exact sequences', () => {
  it('happy (9999HA): picked up, in transit, in delivery, delivered', async () => {
    expect(await livedScenario('9999HA')).toEqual({ status: 4, version: '5', events: ROAD, attempts: [[0, 0, 5 * H + 15 * M, 5 * H + 15 * M]] });
  });

  it('failed-then-delivered (9999FD)', async () => {
    expect(await livedScenario('9999FD')).toEqual({
      status: 4,
      version: '7',
      events: [...ROAD, [3, 17 * H + 15 * M, 17 * H + 15 * M]],
      attempts: [
        [1, 1, 5 * H + 15 * M, 5 * H + 15 * M],
        [0, 0, 19 * H + 15 * M, 19 * H + 15 * M],
      ],
    });
  });

  it('three-failures-returned (9999TF): ends in status 5', async () => {
    expect(await livedScenario('9999TF')).toEqual({
      status: 5,
      version: '9',
      events: [...ROAD, [3, 17 * H + 15 * M, 17 * H + 15 * M], [3, 30 * H + 15 * M, 30 * H + 15 * M]],
      attempts: [
        [1, 1, 5 * H + 15 * M, 5 * H + 15 * M],
        [1, 1, 18 * H + 15 * M, 18 * H + 15 * M],
        [1, 1, 31 * H + 15 * M, 31 * H + 15 * M],
      ],
    });
  });

  it('delivered-elsewhere (9999DE): outcome 2 with the neighbour\'s address', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const id = (await createParcel(s.url, { postal_code: '9999DE' })).body.data.entry_id as string;
      s.clock.advance(6 * H * 1000);
      expect(await lifeOf(s.url, id)).toEqual({ status: 4, version: '5', events: ROAD, attempts: [[2, 1, 5 * H + 15 * M, 5 * H + 15 * M]] });
      const attempt = (await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/attempts`)).body.data.attempts[0];
      expect(attempt.delivered).toEqual({ delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12', delivered_location_type: 1 });
    } finally {
      await s.close();
    }
  });

  it('refused (9999RF): outcome 3, reason 4, status 5', async () => {
    expect(await livedScenario('9999RF')).toEqual({ status: 5, version: '5', events: ROAD, attempts: [[3, 4, 5 * H + 15 * M, 5 * H + 15 * M]] });
  });

  it('late (9999LT): in delivery a day late', async () => {
    expect(await livedScenario('9999LT')).toEqual({
      status: 4,
      version: '5',
      events: [
        [1, 15 * M, 15 * M],
        [2, 75 * M, 75 * M],
        [3, 27 * H + 15 * M, 27 * H + 15 * M],
      ],
      attempts: [[0, 0, 28 * H + 15 * M, 28 * H + 15 * M]],
    });
  });

  it('out-of-order (9999OO): the delivered attempt arrives first; the in-delivery scan after it is refused as the API would', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const id = (await createParcel(s.url, { postal_code: '9999OO' })).body.data.entry_id as string;
      s.clock.advance(24 * H * 1000);
      expect(await lifeOf(s.url, id)).toEqual({
        status: 4,
        version: '4',
        events: [
          [1, 15 * M, 15 * M],
          [2, 75 * M, 75 * M],
        ],
        attempts: [[0, 0, 4 * H + 15 * M, 4 * H + 15 * M]],
      });
      const run = s.scenarios.get(id);
      expect(run?.refused).toEqual([{ step: 3, code: 'parcel_delivered' }]);
      expect(run?.steps[3]).toEqual({ arrives_at: START_S + 4 * H + 16 * M, occurred_at: START_S + 4 * H + 5 * M, event: 3, copies: 1, applied: true });
      expect(run?.done).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('steps apply as the clock reaches them, each stored as if posted (ETag changes with every step)', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const created = await createParcel(s.url, { postal_code: '9999HA' });
      const id = created.body.data.entry_id as string;
      const etags = [created.headers.get('etag')];
      for (const minutes of [15, 60, 180, 60]) {
        s.clock.advance(minutes * 60_000);
        etags.push((await call(s.url, 'GET', `/deliveries/v1/parcels/${id}`)).headers.get('etag'));
      }
      expect(etags.map((e) => e?.slice(0, 3))).toEqual(['"v1', '"v2', '"v3', '"v4', '"v5']);
      expect(new Set(etags).size).toBe(5);
    } finally {
      await s.close();
    }
  });
});

describe('scenarios: determinism and assignment', () => {
  it('the same seed gives the same life across runs and across a restart half-way', async () => {
    const whole = await livedScenario('9999TF', { scenarioSeed: 5 });
    const db = join(dir, 'restart.db');
    const time = manualTime(START);
    const first = await startSandbox({ db, seed: TEST_SEED, time, frozen: true, scenarioSeed: 5 });
    let id: string;
    try {
      id = (await createParcel(first.url, { postal_code: '9999TF' })).body.data.entry_id as string;
      first.clock.advance(6 * H * 1000);
      await call(first.url, 'GET', `/deliveries/v1/parcels/${id}`);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ db, seed: TEST_SEED, time, scenarioSeed: 5 });
    try {
      second.clock.advance((4 * 24 - 6) * H * 1000);
      expect(await lifeOf(second.url, id)).toEqual(whole);
    } finally {
      await second.close();
    }
  });

  it('assigned per parcel through the library handle; an unknown name is refused', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const id = (await createParcel(s.url)).body.data.entry_id as string;
      expect(s.scenarios.get(id)).toBeUndefined();
      expect(() => s.scenarios.assign(id, 'nope')).toThrow('unknown scenario "nope"; known: happy, failed-then-delivered, three-failures-returned, delivered-elsewhere, refused, late, out-of-order');
      expect(s.scenarios.assign(id, 'refused').steps.map((step) => step.applied)).toEqual([false, false, false, false]);
      s.clock.advance(6 * H * 1000);
      expect((await lifeOf(s.url, id)).status).toBe(5);
      expect(s.scenarios.list().map((x) => x.name)).toEqual(['happy', 'failed-then-delivered', 'three-failures-returned', 'delivered-elsewhere', 'refused', 'late', 'out-of-order']);
    } finally {
      await s.close();
    }
  });

  it('with speed 600 a scenario parcel is delivered within a minute of real time', async () => {
    const time = manualTime(START);
    const s = await startSandbox({ seed: TEST_SEED, time, speed: 600 });
    try {
      const id = (await createParcel(s.url, { postal_code: '9999HA' })).body.data.entry_id as string;
      time.advance(30_000); // 5 h of data time
      expect((await lifeOf(s.url, id)).status).toBe(3);
      time.advance(2_000);
      expect((await lifeOf(s.url, id)).status).toBe(4);
    } finally {
      await s.close();
    }
  });
});
