/** Two sandbox processes on one database file share the test clock, and apply each scenario step once. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildSandbox } from './processes.js';
import { bundleSandbox, startChild } from './processes.js';
import { TEST_SEED, call, createParcel } from './helpers.js';

const ADMIN = 'cross-process-admin-token';
let one: ChildSandbox;
let two: ChildSandbox;

beforeAll(async () => {
  await bundleSandbox();
  const db = join(mkdtempSync(join(tmpdir(), 'parcels-xproc-bench-')), 'shared.db');
  one = await startChild({ seed: TEST_SEED, db, frozen: true, adminToken: ADMIN });
  two = await startChild({ seed: TEST_SEED, db, adminToken: ADMIN });
}, 60_000);

afterAll(async () => {
  await one.close();
  await two.close();
});

describe('the test bench across processes', () => {
  it('a clock moved in one process is the other\'s; due steps are applied once whichever process gets the requests', async () => {
    const id = (await createParcel(one.url, { postal_code: '9999FD' })).body.data.entry_id as string;
    const moved = await call(one.url, 'POST', '/_sandbox/v1/clock/advance', { key: ADMIN, body: { by: '1d' } });
    expect(moved.status).toBe(200);
    const seen = await call(two.url, 'GET', '/_sandbox/v1/clock', { key: ADMIN });
    expect(seen.body.data).toEqual(moved.body.data);
    // Both processes are asked at once; each catches up before answering.
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? one.url : two.url, 'GET', `/deliveries/v1/parcels/${id}/events`)),
    );
    for (const r of reads) expect(r.body.data.events.map((e: { status: number }) => e.status)).toEqual([1, 2, 3, 3]);
    const attempts = await call(two.url, 'GET', `/deliveries/v1/parcels/${id}/attempts`);
    expect(attempts.body.data.attempts.map((a: { outcome: number }) => a.outcome)).toEqual([1, 0]);
    expect((await call(one.url, 'GET', `/deliveries/v1/parcels/${id}`)).body.data.status).toBe(4);
  });
});
