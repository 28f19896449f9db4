// The node:test example of docs/sandbox.md, run by the packed tier (`node --test`): one sandbox for
// the file, kept open a while when a test failed (outside CI), closed after the last test.
import assert from 'node:assert/strict';
import { after, afterEach, test } from 'node:test';
import { DEMO_API_KEY } from 'parcels/sandbox';
import { startTestSandbox } from 'parcels/testing';

const sbx = await startTestSandbox({ keepOpenOnFailure: '10m' });
afterEach((t) => {
  if (!t.passed) sbx.markFailed();
});
after(() => sbx.close());

const list = () => fetch(`${sbx.url}/deliveries/v1/parcels`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } });

test('a request shows in the log with its route and status', async () => {
  assert.equal((await list()).status, 200);
  const entries = await sbx.logs({ route: 'parcels.list' });
  assert.deepEqual(
    entries.map((e) => [e.method, e.path, e.status]),
    [['GET', '/deliveries/v1/parcels', 200]],
  );
});

test("the clock moves by '36h' without waiting", async () => {
  const before = await sbx.clock.freeze();
  const after36h = await sbx.clock.advance('36h');
  assert.equal(after36h.now_ms - before.now_ms, 36 * 3_600_000);
});
