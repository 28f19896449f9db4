/**
 * The request log shows what was sent (issue 32): headers, the decoded query, bodies as JSON values,
 * the wall-clock arrival beside data time, filters (the library's, the admin route's: one filter),
 * and the log kept after close().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, RunningSandbox } from '../../src/sandbox/index.js';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_B, PARCEL, TEST_SEED, call, createParcel } from './helpers.js';

const WALL = Date.UTC(2026, 10, 2, 12, 0, 0);
const ADMIN = 'request-log-admin-token-01';
let s: RunningSandbox;
let id: string;

beforeAll(async () => {
  const time = manualTime(WALL);
  s = await startSandbox({ seed: TEST_SEED, time, adminToken: ADMIN });
  // Data time 2 days ahead of the wall clock.
  s.clock.advance(2 * 86_400_000);
  id = (await createParcel(s.url)).body.data.entry_id as string;
  const idem = 'log-test-idem-0001';
  const event = { status: 1, occurred_at: Math.floor(s.clock.now() / 1000) };
  await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: event, idem });
  await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: event, idem });
  await call(s.url, 'POST', `/deliveries/v1/parcels/${id}/events`, { body: { ...event, status: 2 }, idem });
  await call(s.url, 'GET', `/deliveries/v1/parcels?limit=1&status=0&status=1&note=${encodeURIComponent(`for ${KEY_B}`)}`, { headers: { 'x-trace': `t ${KEY_A}` } });
  await call(s.url, 'GET', '/deliveries/v1/parcels', { key: KEY_B });
  await call(s.url, 'POST', '/deliveries/v1/parcels', { raw: 'not json', idem: 'log-test-idem-0002' });
});
afterAll(async () => {
  await s?.close();
});

const brief = (entries: LogEntry[]) => entries.map((e) => `${e.seq} ${e.method} ${e.path} ${e.status ?? 'dropped'}`);

describe('the request log', () => {
  it('shows headers, the query as sent and decoded (redacted), JSON bodies as values, and arrival beside data time', () => {
    const [create, event, replay, conflict, list] = s.logs({ bodies: true });
    expect(create?.request_body).toEqual(PARCEL);
    expect(create?.response_body).toMatchObject({ data: { entry_id: id, number: '10' } });
    expect(create?.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': expect.stringMatching(/^test-key-/) });
    expect(create?.at).toBe(new Date(WALL + 2 * 86_400_000).toISOString());
    expect(create?.arrived_at).toBe(new Date(WALL).toISOString());
    expect([event?.replay, replay?.replay, conflict?.status, conflict?.code]).toEqual([false, true, 409, 'idempotency_key_reused']);
    expect(list?.path).toBe('/deliveries/v1/parcels');
    expect(list?.query).toBe('limit=1&status=0&status=1&note=for%20[redacted]');
    expect(list?.query_params).toEqual({ limit: '1', status: ['0', '1'], note: 'for [redacted]' });
    expect(list?.headers?.['x-trace']).toBe('t [redacted]');
    const notJson = s.logs({ bodies: true }).at(-1);
    expect(notJson?.request_body).toBe('not json');
    expect(notJson?.response_body).toMatchObject({ error: { code: 'invalid_json' } });
    expect(JSON.stringify(s.logs({ bodies: true }))).not.toMatch(new RegExp(`${KEY_A}|${KEY_B}`));
  });

  it('filters by route, method, path, status or its class, organisation, idempotency key, parcel and after; ANDed', async () => {
    expect(brief(s.logs({ route: 'events.create' }))).toEqual([
      `2 POST /deliveries/v1/parcels/${id}/events 201`,
      `3 POST /deliveries/v1/parcels/${id}/events 201`,
      `4 POST /deliveries/v1/parcels/${id}/events 409`,
    ]);
    expect(brief(s.logs({ method: 'get' }))).toEqual(['5 GET /deliveries/v1/parcels 400', '6 GET /deliveries/v1/parcels 200']);
    expect(brief(s.logs({ path: '/deliveries/v1/parcels', org: 'org_b' }))).toEqual(['6 GET /deliveries/v1/parcels 200']);
    expect(brief(s.logs({ status: '4xx' }))).toEqual([`4 POST /deliveries/v1/parcels/${id}/events 409`, '5 GET /deliveries/v1/parcels 400', '7 POST /deliveries/v1/parcels 400']);
    expect(brief(s.logs({ status: 409, after: 4 }))).toEqual([]);
    expect(brief(s.logs({ idempotencyKey: 'log-test-idem-0001', status: 201 }))).toEqual([`2 POST /deliveries/v1/parcels/${id}/events 201`, `3 POST /deliveries/v1/parcels/${id}/events 201`]);
    expect(brief(s.logs({ parcel: id.toUpperCase() })).map((line) => line.split(' ')[0])).toEqual(['1', '2', '3', '4']);
    // The admin route takes the same filters as query parameters; `latest` stays the log's.
    const page = await call(s.url, 'GET', `/_sandbox/v1/logs?route=events.create&status=2xx&idempotency_key=log-test-idem-0001&bodies=1`, { key: ADMIN });
    expect(page.status).toBe(200);
    expect(page.body.data.entries.map((e: LogEntry) => [e.seq, e.replay, e.request_body])).toEqual([
      [2, false, { status: 1, occurred_at: expect.any(Number) }],
      [3, true, { status: 1, occurred_at: expect.any(Number) }],
    ]);
    expect(page.body.data.latest).toBe(7);
    const bad = await call(s.url, 'GET', '/_sandbox/v1/logs?status=5x', { key: ADMIN });
    expect([bad.status, bad.body.error]).toEqual([400, { code: 'invalid_parameter', message: 'query parameter status must be a status from 100 to 599 (503) or a class of them (5xx)', field: 'status' }]);
  });

  it('a filtered wait answers when a matching entry arrives, not before', async () => {
    const waiting = call(s.url, 'GET', '/_sandbox/v1/logs?after=7&wait=30000&status=404', { key: ADMIN });
    await call(s.url, 'GET', '/account/v1/couriers');
    await call(s.url, 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000404');
    const page = await waiting;
    expect(brief(page.body.data.entries)).toEqual(['9 GET /deliveries/v1/parcels/00000000-0000-4000-8000-000000000404 404']);
    expect(page.body.data.latest).toBe(9);
  });

  it('is kept after close(), filters and bodies included', async () => {
    const closing = await startSandbox({ seed: TEST_SEED });
    await createParcel(closing.url);
    await closing.close();
    expect(closing.logs({ route: 'parcels.create', bodies: true }).map((e) => [e.seq, e.status, e.request_body])).toEqual([[1, 201, PARCEL]]);
  });
});
