import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_A_EXPIRED, KEY_A_READ, KEY_B, KEY_R, KEY_U, KEY_USAGE_ONLY, TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const s = await startSandbox({ db: ':memory:', port: 0, seed: TEST_SEED });
  base = s.url;
  close = s.close;
});
afterAll(async () => close());

describe('authentication and authorisation', () => {
  it('401 with WWW-Authenticate for missing, malformed, unknown and expired keys', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_credentials'],
      [{ authorization: 'Basic abc' }, 'invalid_credentials'],
      [{ authorization: 'Bearer' }, 'invalid_credentials'],
      [{ authorization: 'Bearer not-a-real-key' }, 'invalid_credentials'],
      [{ authorization: `Bearer ${KEY_A_EXPIRED}` }, 'expired_credentials'],
    ];
    for (const [headers, code] of cases) {
      const r = await call(base, 'GET', '/account/v1/couriers', { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(r.body).toMatchObject({ data: null, error: { code } });
    }
    expect((await call(base, 'GET', '/account/v1/couriers', { key: null, headers: { authorization: `bearer ${KEY_A}` } })).status).toBe(200);
  });

  it('403 insufficient_scope naming the scope', async () => {
    const w = await createParcel(base, {}, KEY_A_READ);
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe('insufficient_scope');
    expect(w.body.error.message).toContain('deliveries:write');
    const u = await call(base, 'GET', '/account/v1/usage', { key: KEY_A_READ });
    expect(u.status).toBe(403);
    expect(u.body.error.message).toContain('usage:read');
    const o = await call(base, 'GET', '/deliveries/v1/oracle/activity', { key: KEY_A_READ });
    expect(o.body.error.message).toContain('oracle:read');
    const r = await call(base, 'GET', '/deliveries/v1/parcels', { key: KEY_USAGE_ONLY });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain('deliveries:read');
    expect((await call(base, 'GET', '/deliveries/v1/parcels', { key: KEY_A_READ })).status).toBe(200);
  });

  it('unverified organisation: writes 403 verification_required, reads allowed', async () => {
    const w = await createParcel(base, { courier: 'U-1' }, KEY_U);
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe('verification_required');
    const v = await call(base, 'POST', '/deliveries/v1/address/validate', { key: KEY_U, body: { country: 'NL', postal_code: '1234AB', number: '1' } });
    expect(v.status).toBe(403);
    expect((await call(base, 'GET', '/deliveries/v1/parcels', { key: KEY_U })).status).toBe(200);
  });

  it('rate limit per organisation: 429 with Retry-After after the seed\'s 3 requests; others unaffected', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await call(base, 'GET', '/account/v1/couriers', { key: KEY_R });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last!.body.error.code).toBe('rate_limited');
    const retry = Number(last!.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(last!.headers.get('ratelimit-limit')).toBe('3');
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    expect((await call(base, 'GET', '/account/v1/couriers', { key: KEY_B })).status).toBe(200);
  });

  it('rateLimit option replaces the top-level limit; false switches limiting off', async () => {
    const tight = await startSandbox({ seed: TEST_SEED, rateLimit: { requests: 2, window_s: 30 } });
    const off = await startSandbox({ seed: TEST_SEED, rateLimit: false });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await call(tight.url, 'GET', '/account/v1/couriers', { key: KEY_B })).status);
      expect(codes).toEqual([200, 200, 429]);
      for (let i = 0; i < 5; i++) expect((await call(off.url, 'GET', '/account/v1/couriers', { key: KEY_R })).status).toBe(200);
    } finally {
      await tight.close();
      await off.close();
    }
  });
});

describe('account routes', () => {
  it('couriers', async () => {
    const r = await call(base, 'GET', '/account/v1/couriers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { couriers: [{ code: 'A-BIKE', name: 'A bikes' }, { code: 'A-VAN', name: 'A vans' }] } });
  });

  it('overview counts by status, couriers, events and attempts', async () => {
    const p = await createParcel(base, { courier: 'B-BIKE' }, KEY_B);
    const id = p.body.data.entry_id;
    await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { key: KEY_B, body: { status: 1, occurred_at: nowS() }, idem: newKey() });
    await call(base, 'POST', `/deliveries/v1/parcels/${id}/attempts`, { key: KEY_B, body: { time_attempt: nowS(), outcome: 1 }, idem: newKey() });
    await createParcel(base, { courier: 'B-BIKE' }, KEY_B);
    const r = await call(base, 'GET', '/account/v1/overview', { key: KEY_B });
    expect(r.status).toBe(200);
    expect(r.body.data.organisation).toEqual({ id: 'org_b', name: 'B', verified: true });
    expect(r.body.data.parcels.total).toBe(2);
    expect(r.body.data.parcels.by_status).toContainEqual({ status: 5, name: 'not_delivered', count: 1 });
    expect(r.body.data.parcels.by_status).toContainEqual({ status: 0, name: 'registered', count: 1 });
    expect(r.body.data.couriers).toEqual([{ code: 'B-BIKE', name: 'B bikes', parcels: 2 }]);
    expect(r.body.data.events).toBe(1);
    expect(r.body.data.attempts).toBe(1);
  });

  it('usage: 30 days of totals and the latest requests, per organisation', async () => {
    await call(base, 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000', { key: KEY_B });
    const daily = await call(base, 'GET', '/account/v1/usage', { key: KEY_B });
    expect(daily.status).toBe(200);
    const days = daily.body.data.days;
    expect(days).toHaveLength(30);
    expect(days[29].date).toBe(new Date().toISOString().slice(0, 10));
    expect(days[29].requests).toBeGreaterThanOrEqual(6);
    expect(days[29].errors).toBeGreaterThanOrEqual(1);
    expect(days[0]).toMatchObject({ requests: 0, errors: 0 });
    const recent = await call(base, 'GET', '/account/v1/usage/requests', { key: KEY_B });
    const reqs = recent.body.data.requests;
    expect(reqs[0]).toMatchObject({ method: 'GET', path: '/account/v1/usage' });
    expect(reqs[1]).toMatchObject({ method: 'GET', path: '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000', status: 404 });
    expect(typeof reqs[0].at).toBe('number');
    for (let i = 0; i < 105; i++) await call(base, 'GET', '/deliveries/v1/reference', { key: KEY_B });
    const capped = await call(base, 'GET', '/account/v1/usage/requests', { key: KEY_B });
    expect(capped.body.data.requests).toHaveLength(100);
  });
});

describe('reference, address, oracle', () => {
  it('reference lists statuses 0..5, outcomes, reasons, location and service types, units', async () => {
    const r = await call(base, 'GET', '/deliveries/v1/reference');
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.statuses).toEqual([
      { code: 0, name: 'registered' },
      { code: 1, name: 'picked_up' },
      { code: 2, name: 'in_transit' },
      { code: 3, name: 'in_delivery' },
      { code: 4, name: 'delivered' },
      { code: 5, name: 'not_delivered' },
    ]);
    expect(d.outcomes).toHaveLength(5);
    expect(d.reasons).toHaveLength(11);
    expect(d.reasons[7]).toEqual({ code: 7, name: 'vehicle_traffic' });
    expect(d.location_types.map((l: { code: number }) => l.code)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(d.service_types.length).toBeGreaterThan(0);
    expect(d.units).toMatchObject({ length: 'cm', weight: 'g', time: 'unix_seconds' });
  });

  it('address validation: valid NL address normalised; non-NL and malformed give valid:false; bad types 422', async () => {
    const ok = await call(base, 'POST', '/deliveries/v1/address/validate', { body: { country: 'nl', postal_code: '1234 ab', number: '12', addition: 'a' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, normalized: { country: 'NL', postal_code: '1234AB', number: '12', addition: 'A' }, issues: [] });
    const be = await call(base, 'POST', '/deliveries/v1/address/validate', { body: { country: 'BE', postal_code: '1000', number: '1' } });
    expect(be.status).toBe(200);
    expect(be.body.data.valid).toBe(false);
    expect(be.body.data.normalized).toBeNull();
    expect(be.body.data.issues.map((i: { field: string }) => i.field)).toEqual(['country', 'postal_code']);
    const zero = await call(base, 'POST', '/deliveries/v1/address/validate', { body: { country: 'NL', postal_code: '0123AB', number: '0' } });
    expect(zero.body.data.issues.map((i: { field: string }) => i.field)).toEqual(['postal_code', 'number']);
    const typed = await call(base, 'POST', '/deliveries/v1/address/validate', { body: { country: 'NL', postal_code: 1234, number: '1' } });
    expect(typed.status).toBe(422);
    expect(typed.body.error.field).toBe('postal_code');
    const extra = await call(base, 'POST', '/deliveries/v1/address/validate', { body: { country: 'NL', postal_code: '1234AB', number: '1', city: 'x' } });
    expect(extra.body.error.field).toBe('city');
    const noType = await call(base, 'POST', '/deliveries/v1/address/validate', { raw: '{}', contentType: 'text/plain' });
    expect(noType.status).toBe(400);
  });

  it('oracle activity, planned and coverage; unknown metric 404; days validated', async () => {
    const p = await createParcel(base, { time_slot_period_start: nowS() + 86_400, time_slot_period_end: nowS() + 90_000, postal_code: '3511AB' });
    const id = p.body.data.entry_id;
    await call(base, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { status: 1, occurred_at: nowS() }, idem: newKey() });
    const act = await call(base, 'GET', '/deliveries/v1/oracle/activity?days=3');
    expect(act.status).toBe(200);
    expect(act.body.data.metric).toBe('activity');
    expect(act.body.data.days).toHaveLength(3);
    expect(act.body.data.days[2].date).toBe(new Date().toISOString().slice(0, 10));
    expect(act.body.data.days[2].events).toBeGreaterThanOrEqual(1);
    expect(act.body.data.days[2]).toHaveProperty('attempts');
    expect((await call(base, 'GET', '/deliveries/v1/oracle/activity')).body.data.days).toHaveLength(7);
    const planned = await call(base, 'GET', '/deliveries/v1/oracle/planned?days=2');
    expect(planned.body.data.days).toHaveLength(2);
    expect(planned.body.data.days[1].parcels).toBeGreaterThanOrEqual(1);
    const cov = await call(base, 'GET', '/deliveries/v1/oracle/coverage');
    expect(cov.body.data.metric).toBe('coverage');
    expect(cov.body.data.postcode_areas).toContainEqual(expect.objectContaining({ area: '35' }));
    expect(cov.body.data.couriers.map((c: { code: string }) => c.code)).toEqual(['A-BIKE', 'A-VAN']);
    const unknown = await call(base, 'GET', '/deliveries/v1/oracle/weather');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_metric');
    expect((await call(base, 'GET', '/deliveries/v1/oracle/activity?days=0')).status).toBe(422);
    expect((await call(base, 'GET', '/deliveries/v1/oracle/activity?days=31')).status).toBe(422);
    expect((await call(base, 'GET', '/deliveries/v1/oracle/activity?days=x')).status).toBe(400);
    expect((await call(base, 'GET', '/deliveries/v1/oracle/coverage?days=1')).status).toBe(400);
    expect((await call(base, 'GET', '/deliveries/v1/oracle/activity?window=1')).status).toBe(400);
  });

  it('oracleUnavailable: oracle routes answer 503 oracle_unavailable, others work', async () => {
    const s = await startSandbox({ seed: TEST_SEED, oracleUnavailable: true });
    try {
      const r = await call(s.url, 'GET', '/deliveries/v1/oracle/activity');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ data: null, error: { code: 'oracle_unavailable' } });
      expect(r.headers.get('retry-after')).toBe('30');
      expect((await call(s.url, 'GET', '/deliveries/v1/reference')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
