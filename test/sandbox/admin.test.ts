import { describe, expect, it } from 'vitest';
import { routePath } from '../../src/api/routes.js';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { ADMIN_ROUTES } from '../../src/schemas/routes.js';
import { KEY_A, TEST_SEED, call, createParcel, newKey } from './helpers.js';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);

describe('the admin route', () => {
  it('takes the admin token, refuses customer keys, missing and wrong tokens', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const token = s.adminToken as string;
      expect(token).toMatch(/^sbxadm_[A-Za-z0-9_-]{32}$/);
      const ok = await call(s.url, 'GET', '/_sandbox/v1/clock', { key: token });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ data: { now_ms: START, now: '2026-11-02T12:00:00.000Z', frozen: true, speed: 1 } });
      const customer = await call(s.url, 'GET', '/_sandbox/v1/clock', { key: KEY_A });
      expect(customer.status).toBe(403);
      expect(customer.body.error).toEqual({ code: 'customer_key_refused', message: 'a customer API key cannot use the admin route; send the sandbox admin token' });
      const none = await call(s.url, 'GET', '/_sandbox/v1/clock', { key: null });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('missing_credentials');
      const wrong = await call(s.url, 'GET', '/_sandbox/v1/clock', { key: 'sbxadm_not-the-token' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('invalid_credentials');
      // And the admin token is no customer key.
      expect((await call(s.url, 'GET', '/account/v1/couriers', { key: token })).body.error.code).toBe('invalid_credentials');
    } finally {
      await s.close();
    }
  });

  it('is off on a non-loopback listener unless a token was given at start', async () => {
    const open = await startSandbox({ seed: TEST_SEED, host: '0.0.0.0' });
    try {
      expect(open.adminToken).toBeUndefined();
      const url = open.url.replace('0.0.0.0', '127.0.0.1');
      const refused = await call(url, 'GET', '/_sandbox/v1/clock', { key: 'anything-at-all' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('admin_disabled');
    } finally {
      await open.close();
    }
    const explicit = await startSandbox({ seed: TEST_SEED, host: '0.0.0.0', adminToken: 'my-own-admin-token' });
    try {
      const url = explicit.url.replace('0.0.0.0', '127.0.0.1');
      expect((await call(url, 'GET', '/_sandbox/v1/clock', { key: 'my-own-admin-token' })).status).toBe(200);
    } finally {
      await explicit.close();
    }
  });

  it('moves the clock, assigns scenarios, lists them; refuses what it cannot do with a clear error', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    const key = s.adminToken as string;
    try {
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/advance', { key, body: { by: '36h' } })).body.data.now).toBe('2026-11-04T00:00:00.000Z');
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/set', { key, body: { to: '2026-12-01T09:00:00Z' } })).body.data.now).toBe('2026-12-01T09:00:00.000Z');
      const back = await call(s.url, 'POST', '/_sandbox/v1/clock/set', { key, body: { to: '2026-11-01T09:00:00Z' } });
      expect(back.status).toBe(422);
      expect(back.body.error.message).toBe("the clock only moves forward: 2026-11-01T09:00:00.000Z is before the sandbox's now, 2026-12-01T09:00:00.000Z");
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/advance', { key, body: { by: 'soon' } })).body.error.field).toBe('by');
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/speed', { key, body: { speed: 600 } })).body.data.speed).toBe(600);
      expect((await call(s.url, 'POST', '/_sandbox/v1/clock/resume', { key, body: {} })).body.data.frozen).toBe(false);
      const id = (await createParcel(s.url)).body.data.entry_id as string;
      const assigned = await call(s.url, 'POST', `/_sandbox/v1/parcels/${id}/scenario`, { key, body: { scenario: 'happy' } });
      expect(assigned.status).toBe(201);
      expect(assigned.body.data.scenario).toBe('happy');
      expect(assigned.body.data.steps).toHaveLength(4);
      expect((await call(s.url, 'GET', `/_sandbox/v1/parcels/${id}/scenario`, { key })).body.data.entry_id).toBe(id);
      const unknown = await call(s.url, 'POST', `/_sandbox/v1/parcels/${id}/scenario`, { key, body: { scenario: 'teleport' } });
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.message).toMatch(/^unknown scenario "teleport"; known: happy, /);
      expect((await call(s.url, 'POST', '/_sandbox/v1/parcels/00000000-0000-4000-8000-000000000000/scenario', { key, body: { scenario: 'happy' } })).status).toBe(404);
      expect((await call(s.url, 'GET', '/_sandbox/v1/scenarios', { key })).body.data.scenarios[0]).toEqual({ name: 'happy', description: 'registered → picked up → in transit → in delivery → delivered' });
      expect((await call(s.url, 'GET', '/_sandbox/v1/nothing', { key })).status).toBe(404);
      // None of this is usage of the API.
      const usage = await call(s.url, 'GET', '/account/v1/usage/requests');
      expect(usage.body.data.requests.map((r: { path: string }) => r.path)).toEqual(['/deliveries/v1/parcels']);
    } finally {
      await s.close();
    }
  });

  it('never answers 5xx to bad input', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    const key = s.adminToken as string;
    try {
      const cases: Array<[string, string, Parameters<typeof call>[3]]> = [
        ['POST', '/_sandbox/v1/clock/advance', { key, raw: '{"by":' }],
        ['POST', '/_sandbox/v1/clock/advance', { key, raw: '[1]' }],
        ['POST', '/_sandbox/v1/clock/advance', { key, body: { ms: -5 } }],
        ['POST', '/_sandbox/v1/clock/advance', { key, body: { ms: 1e300 } }],
        ['POST', '/_sandbox/v1/clock/advance', { key, body: { by: '200000000d' } }],
        ['POST', '/_sandbox/v1/clock/advance', { key, body: { by: '1h' }, contentType: 'text/plain' }],
        ['POST', '/_sandbox/v1/clock/set', { key, body: { to: 'yesterday' } }],
        ['POST', '/_sandbox/v1/clock/set', { key, body: { to: 1.5 } }],
        ['POST', '/_sandbox/v1/clock/speed', { key, body: { speed: 0 } }],
        ['POST', '/_sandbox/v1/clock/speed', { key, body: { speed: 'fast' } }],
        ['POST', '/_sandbox/v1/clock/rewind', { key, body: {} }],
        ['POST', '/_sandbox/v1/parcels/not-a-uuid/scenario', { key, body: { scenario: 'happy' } }],
        ['POST', '/_sandbox/v1/parcels/00000000-0000-4000-8000-000000000000/scenario', { key, body: { scenario: 7 } }],
        ['GET', '/_sandbox/v1/logs?after=-1', { key }],
        ['GET', '/_sandbox/v1/logs?wait=soon', { key }],
        ['DELETE', '/_sandbox/v1/clock', { key }],
      ];
      for (const [method, path, opts] of cases) {
        const r = await call(s.url, method, path, opts);
        expect(r.status, `${method} ${path} ${JSON.stringify(opts?.body ?? opts?.raw)}`).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body.data).toBeNull();
      }
    } finally {
      await s.close();
    }
  });
});

describe('the request log', () => {
  it('keeps method, route, status, code, replay and latency; never a key; bodies only when asked; bounded', async () => {
    const s = await startSandbox({ seed: TEST_SEED, logSize: 4 });
    try {
      const idem = newKey();
      const body = { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '5' };
      await call(s.url, 'POST', '/deliveries/v1/parcels', { body, idem });
      await call(s.url, 'POST', '/deliveries/v1/parcels', { body, idem });
      await call(s.url, 'GET', '/deliveries/v1/parcels/nope');
      await call(s.url, 'GET', '/account/v1/couriers', { key: null });
      await call(s.url, 'GET', '/_sandbox/v1/logs', { key: s.adminToken as string });
      const entries = s.logs();
      expect(entries.map(({ latency_ms, at, arrived_at, ...rest }) => (expect(latency_ms).toBeGreaterThanOrEqual(0), expect(at).toMatch(/^\d{4}-/), expect(arrived_at).toMatch(/^\d{4}-/), rest))).toEqual([
        { seq: 1, method: 'POST', path: '/deliveries/v1/parcels', query: null, query_params: {}, route: 'parcels.create', org: 'org_a', authorization: 'Bearer [redacted]', status: 201, code: null, replay: false, fault: null },
        { seq: 2, method: 'POST', path: '/deliveries/v1/parcels', query: null, query_params: {}, route: 'parcels.create', org: 'org_a', authorization: 'Bearer [redacted]', status: 201, code: null, replay: true, fault: null },
        { seq: 3, method: 'GET', path: '/deliveries/v1/parcels/nope', query: null, query_params: {}, route: 'parcels.get', org: 'org_a', authorization: 'Bearer [redacted]', status: 400, code: 'invalid_path_parameter', replay: false, fault: null },
        { seq: 4, method: 'GET', path: '/account/v1/couriers', query: null, query_params: {}, route: 'couriers.list', org: null, authorization: null, status: 401, code: 'missing_credentials', replay: false, fault: null },
      ]);
      await call(s.url, 'GET', '/account/v1/couriers');
      const withBodies = s.logs({ bodies: true });
      expect(withBodies.map((e) => e.seq)).toEqual([2, 3, 4, 5]);
      expect(withBodies[0]?.request_body).toEqual(body);
      expect(withBodies[0]?.response_body).toMatchObject({ data: { number: '5' } });
      expect(JSON.stringify(withBodies)).not.toContain(KEY_A);
      expect(JSON.stringify(s.logs())).not.toContain('request_body');
    } finally {
      await s.close();
    }
  });

  it('GET /_sandbox/v1/logs?after=N&wait=MS answers as soon as a request arrives', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    try {
      const key = s.adminToken as string;
      const waiting = call(s.url, 'GET', '/_sandbox/v1/logs?after=0&wait=30000', { key });
      await call(s.url, 'GET', '/account/v1/couriers');
      const answer = await waiting;
      expect(answer.body.data.latest).toBe(1);
      expect(answer.body.data.entries.map((e: { path: string }) => e.path)).toEqual(['/account/v1/couriers']);
      expect(answer.text).not.toContain(KEY_A);
      const withBodies = await call(s.url, 'GET', '/_sandbox/v1/logs?bodies=true', { key });
      expect(JSON.stringify(withBodies.body.data.entries[0].response_body)).toContain('A bikes');
    } finally {
      await s.close();
    }
  });
});

describe('request log bodies', () => {
  it('keeps at most the first 8 KiB of a body, saying how much was cut, never the first part of a word the cut splits', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    try {
      const number = 'x y '.repeat(2250);
      await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number }, idem: newKey() });
      const [entry] = s.logs({ bodies: true });
      const sent = JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number });
      expect(entry?.request_body).toBe(`${sent.slice(0, 8192)}… (${sent.length - 8192} more bytes)`);
      const long = 'x'.repeat(9000);
      await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: long }, idem: newKey() });
      const cutText = JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: long });
      const cut = cutText.indexOf('x');
      expect(s.logs({ bodies: true })[1]?.request_body).toBe(`${cutText.slice(0, cut)}… (${cutText.length - cut} more bytes)`);
      expect(entry?.status).toBe(422);
      expect(entry?.response_body).toMatchObject({ error: { code: 'validation_failed' } });
    } finally {
      await s.close();
    }
  });

  it('answers every route of the admin table (src/schemas/routes.ts) at the path the CLI builds from it, and only those', async () => {
    const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
    try {
      const token = s.adminToken as string;
      const id = (await createParcel(s.url)).body.data.entry_id as string;
      expect((await call(s.url, 'POST', routePath('sandbox.scenario.assign', { id }), { key: token, body: { scenario: 'happy' } })).status).toBe(201);
      const params: Record<string, string> = { id, action: 'freeze', name: 'nobody' };
      const answered: Array<[string, number]> = [];
      for (const route of ADMIN_ROUTES) {
        const path = routePath(route.name, params) + (route.name === 'sandbox.proof' ? '?nonce=abcdefghijklmnopqrstuvwx' : '');
        const body = route.method === 'POST' || route.method === 'PUT' ? (route.name === 'sandbox.scenario.assign' ? { scenario: 'no-such-scenario' } : route.name === 'sandbox.tenants.create' ? { name: 'one' } : {}) : undefined;
        answered.push([route.name, (await call(s.url, route.method, path, { key: token, ...(body === undefined ? {} : { body }) })).status]);
      }
      expect(answered).toEqual([
        ['sandbox.clock.get', 200],
        ['sandbox.clock.move', 200],
        ['sandbox.scenarios.list', 200],
        ['sandbox.scenario.get', 200],
        ['sandbox.scenario.assign', 422],
        ['sandbox.logs.list', 200],
        ['sandbox.inspector.login', 201],
        ['sandbox.faults.list', 200],
        ['sandbox.faults.add', 422],
        ['sandbox.faults.clear', 200],
        ['sandbox.fault.remove', 404],
        ['sandbox.faults.rates', 200],
        ['sandbox.proof', 200],
        ['sandbox.reset', 200],
        ['sandbox.tenants.create', 201],
        ['sandbox.tenants.list', 200],
        ['sandbox.tenants.remove', 404],
      ]);
      const unknown = await call(s.url, 'POST', '/_sandbox/v1/clock/rewind', { key: token, body: {} });
      expect([unknown.status, unknown.body.error]).toEqual([404, { code: 'route_not_found', message: 'no admin route POST /_sandbox/v1/clock/rewind' }]);
    } finally {
      await s.close();
    }
  });
});
