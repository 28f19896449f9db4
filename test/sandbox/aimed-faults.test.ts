/** Faults set at run time: aimed at a route or a method and path (and an organisation), and the rates. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultError, startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_B, TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

const s = await startSandbox({ seed: TEST_SEED, limits: { idleTimeoutMs: 200 } });
afterAll(() => s.close());
beforeEach(() => {
  s.faults.clear();
  s.faults.setRates({ retry_after_s: 1 });
});

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}/_sandbox/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${s.adminToken as string}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { data: unknown; error?: { code: string; message: string; field?: string; details?: unknown } } };
}

const attempt = () => ({ time_attempt: nowS(), outcome: 1 });
const latest = () => s.logs().at(-1);

describe('aimed faults over the admin route', () => {
  it('fails exactly one POST …/attempts with 503; the retry with the same key succeeds and is no replay', async () => {
    const id = (await createParcel(s.url)).body.data.entry_id as string;
    const added = await admin('POST', '/faults', { route: 'attempts.create', status: 503, times: 1 });
    expect(added).toEqual({ status: 201, retryAfter: null, body: { data: { id: expect.stringMatching(/^flt_\d+$/), route: 'attempts.create', status: 503, times: 1, remaining: 1, hits: 0 } } });
    const fid = (added.body.data as { id: string }).id;
    const idem = newKey();
    const body = attempt();
    const first = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { body, idem });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.body).toEqual({ data: null, error: { code: 'service_unavailable', message: `injected fault ${fid}: service unavailable` } });
    expect(latest()).toMatchObject({ method: 'POST', route: 'attempts.create', status: 503, code: 'service_unavailable', fault: fid });
    const retry = await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { body, idem });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(latest()).toMatchObject({ status: 201, fault: null });
    const listed = await admin('GET', '/faults');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual({
      rules: [{ id: fid, route: 'attempts.create', status: 503, times: 1, remaining: 0, hits: 1 }],
      rates: { fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 },
    });
  });

  it('method + exact path: only that parcel, until removed; then DELETE answers the rule, and 404 for it after', async () => {
    const one = (await createParcel(s.url)).body.data.entry_id as string;
    const two = (await createParcel(s.url)).body.data.entry_id as string;
    const path = `/deliveries/v1/parcels/${one}`;
    const added = await admin('POST', '/faults', { method: 'get', path, status: 404, code: 'parcel_gone', message: 'gone for the test' });
    expect(added.status).toBe(201);
    const fid = (added.body.data as { id: string }).id;
    for (let i = 0; i < 3; i++) {
      const r = await call(s.url, 'GET', path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ data: null, error: { code: 'parcel_gone', message: 'gone for the test' } });
      expect(r.headers.get('retry-after')).toBeNull();
    }
    expect((await call(s.url, 'GET', `/deliveries/v1/parcels/${two}`)).status).toBe(200);
    expect((await call(s.url, 'GET', `${path}/events`)).status).toBe(200);
    const removed = await admin('DELETE', `/faults/${fid}`);
    expect(removed).toEqual({ status: 200, retryAfter: null, body: { data: { removed: { id: fid, method: 'GET', path, status: 404, code: 'parcel_gone', message: 'gone for the test', remaining: null, hits: 3 } } } });
    expect((await call(s.url, 'GET', path)).status).toBe(200);
    const again = await admin('DELETE', `/faults/${fid}`);
    expect(again).toEqual({ status: 404, retryAfter: null, body: { data: null, error: { code: 'fault_not_found', message: `no aimed fault ${fid}`, field: 'id' } } });
  });

  it('org: only requests with a key of that organisation; times counts only those', async () => {
    await admin('POST', '/faults', { route: 'reference.get', org: 'org_b', status: 429, times: 2 });
    expect((await call(s.url, 'GET', '/deliveries/v1/reference', { key: KEY_A })).status).toBe(200);
    const limited = await call(s.url, 'GET', '/deliveries/v1/reference', { key: KEY_B });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.error.code).toBe('rate_limited');
    expect((await call(s.url, 'GET', '/deliveries/v1/reference', { key: KEY_B })).status).toBe(429);
    expect((await call(s.url, 'GET', '/deliveries/v1/reference', { key: KEY_B })).status).toBe(200);
  });

  it('a latency rule delays only its route, and the request log marks it', async () => {
    const added = s.faults.add({ route: 'couriers.list', latency_ms: 30 });
    expect((await call(s.url, 'GET', '/account/v1/couriers')).status).toBe(200);
    expect(latest()).toMatchObject({ route: 'couriers.list', status: 200, fault: added.id });
    expect((latest()?.latency_ms ?? 0) >= 30).toBe(true);
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(200);
    expect(latest()).toMatchObject({ route: 'reference.get', fault: null });
  });

  it("promises no keep-alive longer than the idle timeout (200 ms here): a client never reuses a connection the sandbox has destroyed", async () => {
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).headers.get('keep-alive')).toBe('timeout=0');
  });

  it('drop: carried out, then the connection closed unanswered; drop_before: nothing carried out', async () => {
    const after = s.faults.add({ route: 'parcels.create', drop: true, times: 1 });
    const idem = newKey();
    await expect(call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '77' }, idem })).rejects.toThrow();
    expect(latest()).toMatchObject({ route: 'parcels.create', status: null, fault: after.id });
    const replay = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '77' }, idem });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const before = s.faults.add({ route: 'parcels.create', drop: true, drop_before: true, times: 1 });
    const idem2 = newKey();
    await expect(call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '78' }, idem: idem2 })).rejects.toThrow();
    expect(latest()).toMatchObject({ status: null, code: 'connection_dropped', fault: before.id });
    const fresh = await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '78' }, idem: idem2 });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the first live rule wins; a spent one is passed over', async () => {
    const a = s.faults.add({ route: 'reference.get', status: 500, times: 1 });
    const b = s.faults.add({ route: 'reference.get', status: 502 });
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(500);
    const second = await call(s.url, 'GET', '/deliveries/v1/reference');
    expect(second.status).toBe(502);
    expect(second.body.error).toEqual({ code: 'injected_fault', message: `injected fault ${b.id}: HTTP status 502` });
    expect(s.faults.list().rules.map((r) => [r.id, r.remaining, r.hits])).toEqual([[a.id, 0, 1], [b.id, null, 1]]);
  });

  it('DELETE /faults clears every rule and sets the rates to 0', async () => {
    s.faults.add({ route: 'reference.get', status: 500 });
    s.faults.add({ route: 'parcels.list', status: 500 });
    s.faults.setRates({ fail_rate: 0.5, latency_ms: 5 });
    const cleared = await admin('DELETE', '/faults');
    expect(cleared).toEqual({ status: 200, retryAfter: null, body: { data: { removed: 2 } } });
    expect(s.faults.list()).toEqual({ rules: [], rates: { fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 } });
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(200);
  });
});

describe('fault rates at run time', () => {
  it('PUT /faults/rates: a fail rate of 1 fails every request, back to 0 none; the log says fail_rate', async () => {
    const set = await admin('PUT', '/faults/rates', { fail_rate: 1, retry_after_s: 0 });
    expect(set).toEqual({ status: 200, retryAfter: null, body: { data: { fail_rate: 1, drop_rate: 0, latency_ms: 0, retry_after_s: 0 } } });
    const failed = await call(s.url, 'GET', '/deliveries/v1/reference');
    expect([500, 503]).toContain(failed.status);
    expect(latest()).toMatchObject({ fault: 'fail_rate' });
    await admin('PUT', '/faults/rates', { fail_rate: 0 });
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(200);
  });

  it('a run-time latency longer than the idle timeout is waited out: the socket is silent, not idle', async () => {
    s.faults.setRates({ latency_ms: 450 });
    const r = await call(s.url, 'GET', '/deliveries/v1/reference');
    expect(r.status).toBe(200);
    expect(latest()).toMatchObject({ route: 'reference.get', status: 200, fault: 'latency' });
    expect((latest()?.latency_ms ?? 0) >= 450).toBe(true);
  });
});

describe('refused fault changes name the field and the rule', () => {
  it('422 validation_failed with every issue', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ route: 'attempt.create', status: 503 }, 'route', 'route must be an API route name such as attempts.create (got "attempt.create"); did you mean attempts.create?'],
      [{ status: 503 }, 'route', 'route is needed: aim at a route name, or at a method and path'],
      [{ method: 'GET', status: 503 }, 'path', 'path is needed: aim at a route name, or at a method and path'],
      [{ method: 'GET', path: '/deliveries/v1/nope', status: 503 }, 'path', 'path is served by no API route for GET (got "/deliveries/v1/nope")'],
      [{ route: 'parcels.get', method: 'POST', status: 503 }, 'method', 'method must be GET, the method of parcels.get (got "POST")'],
      [{ route: 'parcels.get', status: 503, drop: true }, 'drop', 'drop cannot go with status: the answer is either an error status or none at all'],
      [{ route: 'parcels.get' }, 'status', 'status is needed (or drop, or latency_ms): say what the matching requests get'],
      [{ route: 'parcels.get', status: 302 }, 'status', 'status must be a whole number from 400 to 599'],
      [{ route: 'parcels.get', latency_ms: 600_001 }, 'latency_ms', 'latency_ms must be a whole number from 0 to 600000'],
      [{ route: 'parcels.get', status: 503, times: 0 }, 'times', 'times must be a whole number from 1 to 1000000'],
      [{ route: 'parcels.get', status: 503, tims: 2 }, 'tims', 'tims is not an allowed field; did you mean times?'],
      [{ route: 'parcels.get', latency_ms: 5, code: 'x' }, 'code', 'code needs status: it shapes the error answer'],
    ];
    for (const [body, field, message] of cases) {
      const r = await admin('POST', '/faults', body);
      expect(r.status, message).toBe(422);
      expect(r.body.error).toMatchObject({ code: 'validation_failed', message, field });
    }
    const rates = await admin('PUT', '/faults/rates', { fail_rate: 2 });
    expect(rates.status).toBe(422);
    expect(rates.body.error).toMatchObject({ code: 'validation_failed', message: 'fail_rate must be a number from 0 to 1', field: 'fail_rate' });
    expect(() => s.faults.add({ route: 'nope' } as never)).toThrow(FaultError);
  });

  it('at most 100 rules: the oldest spent one makes room, else 422 too_many_faults', async () => {
    const spent = s.faults.add({ route: 'reference.get', status: 500, times: 1 });
    for (let i = 0; i < 99; i++) s.faults.add({ route: 'parcels.patch', status: 500, times: 1 });
    const full = await admin('POST', '/faults', { route: 'parcels.patch', status: 500 });
    expect(full.status).toBe(422);
    expect(full.body.error).toEqual({ code: 'too_many_faults', message: 'at most 100 aimed faults are kept; remove some (DELETE /_sandbox/v1/faults/{id}) or clear them' });
    expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(500);
    const added = s.faults.add({ route: 'reference.get', status: 503 });
    const ids = s.faults.list().rules.map((r) => r.id);
    expect(ids).toHaveLength(100);
    expect(ids).not.toContain(spent.id);
    expect(ids.at(-1)).toBe(added.id);
  });
});
