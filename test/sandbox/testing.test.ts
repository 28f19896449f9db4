/**
 * parcels/testing (src/testing): the handle over the admin route, in-process and connected to a
 * running sandbox by URL and token. The packed package's own tier (test/packed/, `npm run
 * test:packed`) runs these shapes through the installed package, with faults, tenants and reset.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortInUseError, startSandbox } from '../../src/sandbox/index.js';
import { BUILTIN_SCENARIOS_DESCRIBED } from '../../src/schemas/scenarios.js';
import type { ScenarioName, TestSandbox } from '../../src/testing/index.js';
import { TestSandboxError, connectTestSandbox, startTestSandbox } from '../../src/testing/index.js';
import { KEY_A, KEY_R, TEST_SEED, call, createParcel } from './helpers.js';

const DAY_MS = 86_400_000;
const open: TestSandbox[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function started(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox({ seed: TEST_SEED, ...options });
  open.push(sandbox);
  return sandbox;
}

describe('parcels/testing: the clock', () => {
  it("advance takes '36h' (the admin route's duration) or milliseconds", async () => {
    const sbx = await started({ frozen: true });
    const before = await sbx.clock.now();
    expect((await sbx.clock.advance('36h')).now_ms).toBe(before + 36 * 3_600_000);
    expect((await sbx.clock.advance(1500)).now_ms).toBe(before + 36 * 3_600_000 + 1500);
    expect((await sbx.clock.advance('1h30m')).now_ms).toBe(before + 36 * 3_600_000 + 1500 + 90 * 60_000);
    const status = await sbx.clock.status();
    expect(status).toEqual({ now_ms: before + 36 * 3_600_000 + 1500 + 90 * 60_000, now: new Date(status.now_ms).toISOString(), frozen: true, speed: 1 });
  });

  it('set takes a Date, ISO text or epoch ms; freeze, resume and speed answer the status', async () => {
    const sbx = await started({ frozen: true });
    const target = Math.floor((await sbx.clock.now()) / 1000) * 1000 + 2 * DAY_MS;
    expect((await sbx.clock.set(new Date(target))).now_ms).toBe(target);
    expect((await sbx.clock.set(new Date(target + 1000).toISOString())).now_ms).toBe(target + 1000);
    expect((await sbx.clock.set(target + 2000)).now_ms).toBe(target + 2000);
    expect((await sbx.clock.speed(600)).speed).toBe(600);
    expect((await sbx.clock.resume()).frozen).toBe(false);
    expect((await sbx.clock.freeze()).frozen).toBe(true);
  });

  it('a rate-limited organisation waits out its window by a clock move, not by sleeping', async () => {
    const sbx = await started({ frozen: true });
    const statuses = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push((await call(sbx.url, 'GET', '/deliveries/v1/parcels', { key: KEY_R })).status);
      return out;
    };
    // org_r: 3 requests a minute.
    expect(await statuses(4)).toEqual([200, 200, 200, 429]);
    await sbx.clock.advance('60s');
    expect(await statuses(4)).toEqual([200, 200, 200, 429]);
    await sbx.clock.set((await sbx.clock.now()) + 60_000);
    expect(await statuses(1)).toEqual([200]);
  });

  it('a duration the one parser refuses is the route\'s 422, in a TestSandboxError', async () => {
    const sbx = await started();
    // The type refuses '1.5x'; a JavaScript caller can still send it.
    const err = await sbx.clock.advance('1.5x' as '1h').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TestSandboxError);
    expect(err).toMatchObject({ status: 422, code: 'validation_failed' });
    expect((err as Error).message).toMatch(/^the sandbox answered POST \/_sandbox\/v1\/clock\/advance with 422 validation_failed: /);
  });
});

describe('parcels/testing: scenarios and the log', () => {
  it('the ScenarioName type lists exactly the scenarios a sandbox has built in', async () => {
    const sbx = await started();
    const builtin: ScenarioName[] = Object.keys(BUILTIN_SCENARIOS_DESCRIBED) as Array<keyof typeof BUILTIN_SCENARIOS_DESCRIBED>;
    expect((await sbx.scenarios.list()).map((s) => s.name)).toEqual(builtin);
  });

  it('assign runs a scenario on a parcel; get reads it, undefined for a parcel without one', async () => {
    const sbx = await started({ frozen: true });
    const created = await createParcel(sbx.url);
    const id = created.body.data.entry_id as string;
    expect(await sbx.scenarios.get(id)).toBeUndefined();
    const run = await sbx.scenarios.assign(id, 'happy');
    expect(run).toMatchObject({ entry_id: id, scenario: 'happy', run: 1, done: false });
    await sbx.clock.advance('6h');
    // A scenario's due steps are applied when the parcel is next read.
    expect((await call(sbx.url, 'GET', `/deliveries/v1/parcels/${id}`)).body.data.status).toBe(4);
    expect(await sbx.scenarios.get(id)).toMatchObject({ entry_id: id, scenario: 'happy', done: true });
    const unknown = await sbx.scenarios.assign(id, 'no-such').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'TestSandboxError', status: 422, code: 'unknown_scenario' });
  });

  it('logs() reads the request log with bodies, and still after close()', async () => {
    const sbx = await startTestSandbox({ seed: TEST_SEED });
    await createParcel(sbx.url);
    const entries = await sbx.logs({ bodies: true });
    expect(entries.map((e) => [e.seq, e.method, e.path, e.status])).toEqual([[1, 'POST', '/deliveries/v1/parcels', 201]]);
    expect(entries[0]?.headers?.['idempotency-key']).toMatch(/^test-key-/);
    await sbx.close();
    expect((await sbx.logs()).map((e) => e.seq)).toEqual([1]);
    await expect(fetch(`${sbx.url}/_sandbox/health`)).rejects.toThrow();
  });
});

describe('parcels/testing: one handle, in-process or connected', () => {
  it('connectTestSandbox drives a running sandbox by URL and token, and close() leaves it running', async () => {
    const running = await startSandbox({ seed: TEST_SEED, frozen: true });
    try {
      const sbx = await connectTestSandbox({ url: `${running.url}/`, adminToken: running.adminToken as string });
      expect(sbx.url).toBe(running.url);
      await sbx.clock.advance('2d');
      expect(running.clock.now()).toBe(await sbx.clock.now());
      await sbx.close();
      expect((await fetch(`${running.url}/_sandbox/health`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('a wrong token is refused at connect, with the route\'s status and code', async () => {
    const running = await startSandbox({ seed: TEST_SEED });
    try {
      const err = await connectTestSandbox({ url: running.url, adminToken: 'not-the-token' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TestSandboxError);
      expect(err).toMatchObject({ status: 401, code: 'invalid_credentials', message: 'the sandbox answered GET /_sandbox/v1/clock with 401 invalid_credentials: the admin token is not valid' });
      const customer = await connectTestSandbox({ url: running.url, adminToken: KEY_A }).catch((e: unknown) => e);
      expect(customer).toMatchObject({ status: 403, code: 'customer_key_refused' });
    } finally {
      await running.close();
    }
  });

  it('nothing listening: TestSandboxError unreachable; a URL that is no base URL: a RangeError', async () => {
    const free = createServer();
    await new Promise<void>((ok) => free.listen(0, '127.0.0.1', ok));
    const port = (free.address() as AddressInfo).port;
    await new Promise((ok) => free.close(ok));
    const err = await connectTestSandbox({ url: `http://127.0.0.1:${port}`, adminToken: 'whatever-token' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TestSandboxError', status: undefined, code: 'unreachable' });
    expect((err as Error).message).toMatch(new RegExp(`^the sandbox at http://127\\.0\\.0\\.1:${port} did not answer GET /_sandbox/v1/clock: `));
    await expect(connectTestSandbox({ url: 'localhost:4010', adminToken: 'whatever-token' })).rejects.toThrow(
      new RangeError('url must be an http:// or https:// URL; got "localhost:4010"'),
    );
    await expect(connectTestSandbox({ url: 'http://127.0.0.1:1/?x=1', adminToken: 'whatever-token' })).rejects.toThrow(
      new RangeError('url must be a base URL without a query or fragment; got "http://127.0.0.1:1/?x=1"'),
    );
  });

  it('await using closes the sandbox at the end of its block', async () => {
    let url = '';
    {
      await using sbx = await startTestSandbox({ seed: TEST_SEED });
      url = sbx.url;
      expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
    }
    await expect(fetch(`${url}/_sandbox/health`)).rejects.toThrow();
  });

  it('PortInUseError from the library names its port option, not a CLI flag', async () => {
    const running = await startSandbox({ seed: TEST_SEED });
    try {
      const port = Number(new URL(running.url).port);
      const err = await startTestSandbox({ seed: TEST_SEED, port }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PortInUseError);
      expect(err).toMatchObject({ port, host: '127.0.0.1', message: `port ${port} on 127.0.0.1 is already in use; choose another port (port: 0 picks a free one)` });
    } finally {
      await running.close();
    }
  });
});

describe('parcels/testing: keeping a failed file\'s sandbox open', () => {
  it('outside CI, close({ failed: true }) prints the inspector link to stderr and keeps the sandbox open for the window', async () => {
    vi.stubEnv('CI', '');
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    // One millisecond: the wait itself is the feature, not the test's clock.
    const sbx = await startTestSandbox({ seed: TEST_SEED, keepOpenOnFailure: 1 });
    expect(sbx.closeTimeoutMs).toBe(10_001);
    sbx.markFailed();
    await sbx.close();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      new RegExp(`^parcels/testing: a test failed; its sandbox ${sbx.url.replaceAll('.', '\\.')} stays open for 0\\.0 s \\(keepOpenOnFailure; Ctrl\\+C ends it sooner\\)\\n  inspector: ${sbx.url.replaceAll('.', '\\.')}/_sandbox/ui/#code=[\\w-]+\\n$`),
    );
    await expect(fetch(`${sbx.url}/_sandbox/health`)).rejects.toThrow();
  });

  it('in CI, or without a failure, close() prints nothing and waits for nothing', async () => {
    const write = vi.spyOn(process.stderr, 'write');
    vi.stubEnv('CI', 'true');
    const inCi = await startTestSandbox({ seed: TEST_SEED, keepOpenOnFailure: '1h' });
    expect(inCi.closeTimeoutMs).toBe(10_000);
    await inCi.close({ failed: true });
    vi.stubEnv('CI', '');
    const passed = await startTestSandbox({ seed: TEST_SEED, keepOpenOnFailure: '1h' });
    expect(passed.closeTimeoutMs).toBe(3_610_000);
    await passed.close({ failed: false });
    expect(write).not.toHaveBeenCalled();
  });

  it('a window over 1h, or no duration, is refused before anything starts', async () => {
    await expect(startTestSandbox({ keepOpenOnFailure: '2h' })).rejects.toThrow(new RangeError(`keepOpenOnFailure must be a duration like '10m' (or whole milliseconds) up to 1h; got "2h"`));
    await expect(connectTestSandbox({ url: 'http://127.0.0.1:1', adminToken: 'whatever-token', keepOpenOnFailure: 'soon' as '1m' })).rejects.toThrow(
      new RangeError(`keepOpenOnFailure must be a duration like '10m' (or whole milliseconds) up to 1h; got "soon"`),
    );
  });
});
