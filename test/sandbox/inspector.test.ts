/**
 * The web inspector's server side over real HTTP: who gets in (one-time codes, the session,
 * never a customer key), the headers every answer carries, same-origin writes, off with the admin
 * route, and the data routes. The page itself is driven in a real browser by test/browser/.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { KEY_A, KEY_B, TEST_SEED, createParcel } from './helpers.js';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
afterAll(() => s.close());
const origin = s.url;
const port = new URL(s.url).port;

const CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

async function send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const response = await fetch(s.url + path, { redirect: 'manual', ...init });
  const text = await response.text();
  let body: { data?: Record<string, unknown>; error?: { code: string; message: string; field?: string } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin, ...headers }, body: JSON.stringify(body) });

/** Logs in with a fresh code; the session as the page sends it: its cookie and its page key. */
async function session(): Promise<{ Cookie: string; 'Parcels-Inspector-Key': string }> {
  const code = new URL(s.inspectorLink() as string).hash.slice('#code='.length);
  const answer = await post('/_sandbox/ui/session', { code });
  expect(answer.status).toBe(201);
  return { Cookie: (answer.headers.get('set-cookie') as string).split(';')[0] as string, 'Parcels-Inspector-Key': answer.body?.data?.page_key as string };
}

describe('the inspector: getting in', () => {
  it('a login link is the page with a one-time code in its fragment; the code gives a session once: an HttpOnly, SameSite=Strict cookie and a page key', async () => {
    const link = s.inspectorLink() as string;
    expect(link).toMatch(new RegExp(`^${s.url}/_sandbox/ui/#code=[A-Za-z0-9_-]{32}$`));
    const code = new URL(link).hash.slice('#code='.length);
    const first = await post('/_sandbox/ui/session', { code });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ data: { page_key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), expires_in_s: 86400 } });
    expect(first.headers.get('set-cookie')).toMatch(new RegExp(`^parcels_inspector_${port}=[A-Za-z0-9_-]{32}; Path=/_sandbox/ui/; HttpOnly; SameSite=Strict; Max-Age=86400$`));
    const again = await post('/_sandbox/ui/session', { code });
    expect(again.status).toBe(401);
    expect(again.body?.error?.code).toBe('invalid_login_code');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a made-up code, a code from another origin, and a code without an Origin', async () => {
    expect((await post('/_sandbox/ui/session', { code: 'A'.repeat(32) })).body?.error?.code).toBe('invalid_login_code');
    expect((await post('/_sandbox/ui/session', { code: 42 })).status).toBe(401);
    const code = new URL(s.inspectorLink() as string).hash.slice('#code='.length);
    const elsewhere = await post('/_sandbox/ui/session', { code }, { Origin: 'http://127.0.0.1:1' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body?.error).toEqual({ code: 'cross_origin_refused', message: 'inspector writes are accepted only from the inspector page itself (same origin)' });
    const noOrigin = await send('/_sandbox/ui/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(noOrigin.status).toBe(403);
    // Refused before it was looked at: the code still works from the page.
    expect((await post('/_sandbox/ui/session', { code })).status).toBe(201);
  });

  it('the data routes need the session: none 401, a customer key 403, a stale or foreign cookie 401, the cookie without its page key 401', async () => {
    const none = await send('/_sandbox/ui/api/overview');
    expect(none.status).toBe(401);
    expect(none.body?.error).toEqual({
      code: 'login_required',
      message: 'the inspector needs a session: open the login link `parcels sandbox serve` printed, or get a new one with `parcels sandbox ui`',
    });
    const customer = await send('/_sandbox/ui/api/overview', { headers: { Authorization: `Bearer ${KEY_A}` } });
    expect(customer.status).toBe(403);
    expect(customer.body?.error?.code).toBe('customer_key_refused');
    const admin = await send('/_sandbox/ui/api/overview', { headers: { Authorization: `Bearer ${s.adminToken as string}` } });
    expect(admin.status).toBe(401);
    const made = await send('/_sandbox/ui/api/overview', { headers: { Cookie: `parcels_inspector_${port}=${'B'.repeat(32)}` } });
    expect(made.status).toBe(401);
    const session1 = await session();
    const otherName = await send('/_sandbox/ui/api/overview', { headers: { ...session1, Cookie: session1.Cookie.replace(`_${port}=`, '_1=') } });
    expect(otherName.status).toBe(401);
    expect((await send('/_sandbox/ui/api/overview', { headers: { Cookie: session1.Cookie } })).status).toBe(401);
    const session2 = await session();
    expect((await send('/_sandbox/ui/api/overview', { headers: { ...session1, 'Parcels-Inspector-Key': session2['Parcels-Inspector-Key'] } })).status).toBe(401);
    expect((await send('/_sandbox/ui/api/overview', { headers: { ...session1, Cookie: `other=1; ${session1.Cookie}` } })).status).toBe(200);
  });

  it('the admin route makes login links for `parcels sandbox ui`: admin token only', async () => {
    const made = await send('/_sandbox/v1/ui/login', { method: 'POST', headers: { Authorization: `Bearer ${s.adminToken as string}` } });
    expect(made.status).toBe(201);
    const data = made.body?.data as { path: string; expires_in_s: number };
    expect(data.expires_in_s).toBe(3600);
    expect(data.path).toMatch(/^\/_sandbox\/ui\/#code=[A-Za-z0-9_-]{32}$/);
    expect((await post('/_sandbox/ui/session', { code: data.path.split('#code=')[1] })).status).toBe(201);
    const customer = await send('/_sandbox/v1/ui/login', { method: 'POST', headers: { Authorization: `Bearer ${KEY_B}` } });
    expect(customer.status).toBe(403);
    expect(customer.body?.error?.code).toBe('customer_key_refused');
  });

  it('is off wherever the admin route is off', async () => {
    const open = await startSandbox({ seed: TEST_SEED, host: '0.0.0.0' });
    try {
      expect(open.inspectorLink()).toBeUndefined();
      const url = open.url.replace('0.0.0.0', '127.0.0.1');
      for (const path of ['/_sandbox/ui/', '/_sandbox/ui/app.js', '/_sandbox/ui/api/overview']) {
        const r = await fetch(url + path);
        expect(r.status, path).toBe(403);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe('admin_disabled');
      }
    } finally {
      await open.close();
    }
  });
});

describe('the inspector: every answer', () => {
  it('carries the CSP, no-store, nosniff and no-referrer; the page holds no data and loads only its own files', async () => {
    const headers = await session();
    for (const [path, type] of [
      ['/_sandbox/ui/', 'text/html; charset=utf-8'],
      ['/_sandbox/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/_sandbox/ui/app.css', 'text/css; charset=utf-8'],
      ['/_sandbox/ui/api/overview', 'application/json'],
      ['/_sandbox/ui/api/nothing', 'application/json'],
    ] as const) {
      const r = await send(path, { headers });
      expect(r.headers.get('content-type'), path).toBe(type);
      expect(r.headers.get('content-security-policy'), path).toBe(CSP);
      expect(r.headers.get('cache-control'), path).toBe('no-store');
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const page = await send('/_sandbox/ui/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="app.js"></script>');
    expect(page.text).not.toMatch(/https?:\/\//);
    const script = await send('/_sandbox/ui/app.js');
    expect(script.text).not.toContain('innerHTML');
    const bare = await send('/_sandbox/ui');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/_sandbox/ui/');
  });

  it('takes writes only from its own origin, with the session', async () => {
    const headers = await session();
    const foreign = await post('/_sandbox/ui/api/clock/advance', { by: '1h' }, { ...headers, Origin: 'http://127.0.0.1:3000' });
    expect(foreign.status).toBe(403);
    expect(foreign.body?.error?.code).toBe('cross_origin_refused');
    const crossSite = await post('/_sandbox/ui/api/clock/advance', { by: '1h' }, { ...headers, 'Sec-Fetch-Site': 'same-site' });
    expect(crossSite.status).toBe(403);
    const noSession = await post('/_sandbox/ui/api/clock/advance', { by: '1h' });
    expect(noSession.status).toBe(401);
    expect(s.clock.now()).toBe(START);
    const moved = await post('/_sandbox/ui/api/clock/advance', { by: '1h' }, headers);
    expect(moved.status).toBe(200);
    expect(moved.body?.data).toEqual({ now_ms: START + 3_600_000, now: '2026-11-02T13:00:00.000Z', frozen: true, speed: 1 });
    // Only the admin routes the page uses: a login link is not made through a session.
    expect((await post('/_sandbox/ui/api/ui/login', {}, headers)).status).toBe(404);
  });
});

describe('the inspector: data', () => {
  it('lists every organisation’s parcels newest first, with filters and id-prefix search', async () => {
    const headers = await session();
    const get = async (query: string) => (await send(`/_sandbox/ui/api/parcels${query}`, { headers })).body?.data as { parcels: Array<Record<string, unknown>>; next_before: number | null };
    const a1 = (await createParcel(s.url)).body.data.entry_id as string;
    const b1 = (await createParcel(s.url, { courier: 'B-BIKE' }, KEY_B)).body.data.entry_id as string;
    const a2 = (await createParcel(s.url, { courier: 'A-VAN', postal_code: '9999HA' })).body.data.entry_id as string;
    const all = await get('');
    expect(all.parcels.slice(0, 3).map((p) => p.entry_id)).toEqual([a2, b1, a1]);
    expect(all.parcels[0]).toMatchObject({ org_id: 'org_a', courier: 'A-VAN', scenario: 'happy', status: 0 });
    expect(all.parcels[1]).toMatchObject({ org_id: 'org_b', scenario: null });
    expect((await get('?org=org_b')).parcels.map((p) => p.entry_id)).toContain(b1);
    expect((await get('?org=org_b')).parcels.every((p) => p.org_id === 'org_b')).toBe(true);
    expect((await get('?courier=A-VAN')).parcels.every((p) => p.courier === 'A-VAN')).toBe(true);
    expect((await get(`?q=${a1.slice(0, 8).toUpperCase()}`)).parcels.map((p) => p.entry_id)).toEqual([a1]);
    const paged = await get('?limit=1');
    expect(paged.parcels.map((p) => p.entry_id)).toEqual([a2]);
    expect((await get(`?limit=1&before=${paged.next_before as number}`)).parcels.map((p) => p.entry_id)).toEqual([b1]);
    const bad = await send('/_sandbox/ui/api/parcels?status=9', { headers });
    expect(bad.status).toBe(400);
    expect(bad.body?.error).toEqual({ code: 'invalid_parameter', message: 'query parameter status must be a whole number from 0 to 5', field: 'status' });
    expect((await send('/_sandbox/ui/api/parcels?q=<img>', { headers })).body?.error?.field).toBe('q');
  });

  it('opens one parcel with its events, attempts and scenario run; lists scenarios with steps; usage per organisation', async () => {
    const headers = await session();
    const id = (await createParcel(s.url, { postal_code: '9999HA' })).body.data.entry_id as string;
    s.clock.advance(6 * 3_600_000);
    const one = (await send(`/_sandbox/ui/api/parcels/${id}`, { headers })).body?.data as Record<string, unknown> & { scenario: { steps: Array<{ applied: boolean }> } };
    expect(one.parcel).toMatchObject({ entry_id: id, org_id: 'org_a', status: 4 });
    expect((one.events as Array<{ status: number }>).map((e) => e.status)).toEqual([1, 2, 3]);
    expect((one.attempts as Array<{ outcome: number }>).map((a) => a.outcome)).toEqual([0]);
    expect(one.scenario.steps.map((step) => step.applied)).toEqual([true, true, true, true]);
    expect((await send('/_sandbox/ui/api/parcels/00000000-0000-4000-8000-000000000000', { headers })).status).toBe(404);
    const scenarios = (await send('/_sandbox/ui/api/scenarios', { headers })).body?.data as { scenarios: Array<{ name: string; builtin: boolean; steps: unknown[] }> };
    expect(scenarios.scenarios[0]).toMatchObject({ name: 'happy', builtin: true });
    expect(scenarios.scenarios[0]?.steps).toEqual([
      { after: 900_000, lateBy: 0, event: 1 },
      { after: 3_600_000, lateBy: 0, event: 2 },
      { after: 10_800_000, lateBy: 0, event: 3 },
      { after: 3_600_000, lateBy: 0, attempt: { outcome: 0, reason: 0 } },
    ]);
    const usage = (await send('/_sandbox/ui/api/usage', { headers })).body?.data as { organisations: Array<{ id: string; days: Array<{ date: string; requests: number }> }> };
    const a = usage.organisations.find((o) => o.id === 'org_a');
    expect(a?.days).toHaveLength(30);
    expect(a?.days.at(-1)?.date).toBe('2026-11-02');
    expect(a?.days.at(-1)?.requests).toBeGreaterThan(0);
  });

  it('the request log through the session: newest entries, bodies for one, the inspector’s own requests not in it', async () => {
    const headers = await session();
    const before = (await send('/_sandbox/ui/api/logs?after=0', { headers })).body?.data as { latest: number };
    await createParcel(s.url);
    const one = (await send(`/_sandbox/ui/api/logs?after=${before.latest}&limit=1&bodies=true`, { headers })).body?.data as { entries: Array<Record<string, unknown>>; latest: number };
    expect(one.latest).toBe(before.latest + 1);
    expect(one.entries).toHaveLength(1);
    expect(one.entries[0]).toMatchObject({ method: 'POST', path: '/deliveries/v1/parcels', status: 201, authorization: 'Bearer [redacted]' });
    expect(JSON.stringify(one.entries)).not.toContain(KEY_A);
    expect(one.entries[0]?.request_body).toMatchObject({ courier: 'A-BIKE' });
    expect((await send('/_sandbox/ui/api/logs?limit=0', { headers })).status).toBe(400);
  });
});
