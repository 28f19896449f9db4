// The vitest example of docs/sandbox.md ("Testing with parcels/testing"), as written there.
import { DEMO_API_KEY } from 'parcels/sandbox';
import { startTestSandbox } from 'parcels/testing';
import { afterAll, beforeEach, expect, test } from 'vitest';

const sbx = await startTestSandbox({ rateLimit: { requests: 2, window_s: 60 }, keepOpenOnFailure: '10m' });
beforeEach(async ({ onTestFailed }) => {
  onTestFailed(() => sbx.markFailed());
  await sbx.reset();
});
afterAll(() => sbx.close(), sbx.closeTimeoutMs);

const listParcels = () => fetch(`${sbx.url}/deliveries/v1/parcels`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } });

test('a rate-limited client gets through once the window has passed', async () => {
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await listParcels()).status);
  expect(statuses).toEqual([200, 200, 429]);
  await sbx.clock.advance('61s'); // past the window: no sleep
  expect((await listParcels()).status).toBe(200);
});

test('reset() between tests: a fresh window and real time', async () => {
  expect((await listParcels()).status).toBe(200);
  expect((await sbx.clock.status()).frozen).toBe(false);
});
