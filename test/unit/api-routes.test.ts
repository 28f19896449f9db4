import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { entryId, findItems, nextCursor } from '../../src/api/envelope.js';
import { ApiClient } from '../../src/api/http.js';
import { listParcels, patchParcel, unappliedFields, walkParcels } from '../../src/api/parcels.js';
import { parseCodeNames } from '../../src/api/reference.js';
import { maskKey, redactKey } from '../../src/api/redact.js';
import { ApiError, ConflictError } from '../../src/errors.js';

const servers: Server[] = [];
const clients: ApiClient[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers['if-match'] ?? ''}`.trim());
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function client(url: string): ApiClient {
  const c = new ApiClient({ baseUrl: url, apiKey: 'k', timeoutMs: 2000, retries: 2, userAgent: 't', sleep: async () => undefined });
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const ID = '3f2c1d6e-1111-4222-8333-944455556666';

/** A parcel store with ETags; the first PATCH applies, then kills the socket (answer lost). */
function parcelServer(opts: { concurrentChange?: boolean }) {
  let parcel: Record<string, unknown> = { entry_id: ID, parcel_weight: 500, addition: 'A', courier: 'DHL' };
  let version = 1;
  let patches = 0;
  return serve((req, res, body) => {
    const etag = `"v${version}"`;
    if (req.method === 'GET') return json(res, 200, { data: parcel }, { etag });
    if (req.method === 'PATCH') {
      patches++;
      if (req.headers['if-match'] !== etag) return json(res, 412, { error: { code: 'precondition_failed', message: 'stale' } });
      const change = JSON.parse(body) as Record<string, unknown>;
      parcel = { ...parcel, ...change };
      for (const [k, v] of Object.entries(change)) if (v === null || v === '') delete parcel[k];
      version++;
      if (opts.concurrentChange) {
        parcel = { ...parcel, parcel_weight: 999 };
        version++;
      }
      if (patches === 1) return req.socket.destroy();
      return json(res, 200, { data: parcel }, { etag: `"v${version}"` });
    }
    json(res, 404, {});
  });
}

describe('patchParcel', () => {
  it('a retry that meets 412 re-reads and succeeds when the change is already there', async () => {
    const { url, seen } = await parcelServer({});
    const result = await patchParcel(client(url), ID, { parcel_weight: null, addition: '', courier: 'DHL' }, '"v1"');
    expect(result.recoveredAfter412).toBe(true);
    expect(result.etag).toBe('"v2"');
    expect(result.data).toEqual({ entry_id: ID, courier: 'DHL' });
    expect(seen).toEqual([`PATCH /deliveries/v1/parcels/${ID} "v1"`, `PATCH /deliveries/v1/parcels/${ID} "v1"`, `GET /deliveries/v1/parcels/${ID}`]);
  });

  it('a retry that meets 412 and finds other values throws ConflictError', async () => {
    const { url } = await parcelServer({ concurrentChange: true });
    const error = await patchParcel(client(url), ID, { parcel_weight: 700 }, '"v1"').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toContain('parcel_weight');
  });

  it('a 412 on the first attempt is the ApiError itself, without a re-read', async () => {
    const { url, seen } = await parcelServer({});
    const error = await patchParcel(client(url), ID, { parcel_weight: 1 }, '"stale"').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, attempt: 1 });
    expect(seen).toHaveLength(1);
  });

  it('unappliedFields: null means absent or null, "" means absent, null or ""', () => {
    expect(unappliedFields({ a: null, b: '', c: 1, d: { x: [1] } }, { a: null, b: null, c: 1, d: { x: [1] } })).toEqual([]);
    expect(unappliedFields({ a: null, b: '' }, {})).toEqual([]);
    expect(unappliedFields({ a: null, b: '', c: 2 }, { a: 0, b: 'x', c: 1 })).toEqual(['a', 'b', 'c']);
    expect(unappliedFields({ a: 1 }, 'not an object')).toEqual(['a']);
  });
});

describe('routes', () => {
  it('walkParcels follows next_cursor to the end', async () => {
    const { url, seen } = await serve((req, res) => {
      const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor');
      if (cursor === null) return json(res, 200, { data: { items: [1, 2], next_cursor: 'c2' } });
      if (cursor === 'c2') return json(res, 200, { data: { items: [3], next_cursor: 'c/3' } });
      return json(res, 200, { data: { items: [4], next_cursor: null } });
    });
    const pages = [];
    for await (const page of walkParcels(client(url), { limit: 2, status: 1 })) pages.push(findItems(page.data));
    expect(pages).toEqual([[1, 2], [3], [4]]);
    expect(seen).toEqual([
      'GET /deliveries/v1/parcels?limit=2&status=1',
      'GET /deliveries/v1/parcels?limit=2&cursor=c2&status=1',
      'GET /deliveries/v1/parcels?limit=2&cursor=c%2F3&status=1',
    ]);
  });

  it('walkParcels stops on a repeated cursor', async () => {
    const { url } = await serve((_req, res) => json(res, 200, { data: { items: [], next_cursor: 'same' } }));
    const walk = async () => {
      for await (const _page of walkParcels(client(url))) void _page;
    };
    await expect(walk()).rejects.toThrow(/twice/);
  });

  it('calls a route by its name in the spec\'s table: encodes path parameters and passes query through', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 201, { data: {} }, { etag: '"e"' }));
    const c = client(url);
    await c.route('parcels.get', { params: { id: 'a/b?c' } });
    await c.route('oracle.get', { params: { metric: 'activity' }, query: { from: '2024-01-01', days: 7 } });
    await c.route('events.create', { params: { id: ID }, body: { status: 1, occurred_at: 1700000000 }, idempotencyKey: 'key-00000001' });
    await listParcels(c, {});
    expect(seen).toEqual([
      'GET /deliveries/v1/parcels/a%2Fb%3Fc',
      'GET /deliveries/v1/oracle/activity?from=2024-01-01&days=7',
      `POST /deliveries/v1/parcels/${ID}/events`,
      'GET /deliveries/v1/parcels',
    ]);
  });
});

describe('envelope helpers', () => {
  it('findItems', () => {
    expect(findItems([1])).toEqual([1]);
    expect(findItems({ total: 3, rows: [1, 2] })).toEqual([1, 2]);
    expect(findItems({ meta: [9], parcels: [1], next_cursor: null })).toEqual([1]);
    expect(findItems({ a: [1], b: [2] })).toEqual([1]);
    expect(findItems({ a: 1 })).toBeUndefined();
    expect(findItems(null)).toBeUndefined();
  });

  it('nextCursor and entryId', () => {
    expect(nextCursor({ next_cursor: 'abc' })).toBe('abc');
    expect(nextCursor({ next_cursor: '' })).toBeUndefined();
    expect(nextCursor({ next_cursor: null })).toBeUndefined();
    expect(nextCursor({})).toBeUndefined();
    expect(entryId({ entry_id: ID })).toBe(ID);
    expect(entryId({})).toBeUndefined();
  });
});

describe('parseCodeNames', () => {
  it('finds code tables in several shapes', () => {
    const names = parseCodeNames({
      statuses: [
        { code: 0, name: 'registered' },
        { code: 4, name: 'delivered' },
      ],
      units: { weight: 'g' },
      codes: {
        outcome_codes: { '0': 'delivered', '1': 'failed' },
        reasons: ['none', 'not_home'],
        location_types: { values: [{ value: '2', label: 'mailbox' }] },
      },
      service_type: [{ id: 1, description: 'same day' }],
    });
    expect(names).toEqual({
      status: { 0: 'registered', 4: 'delivered' },
      outcome: { 0: 'delivered', 1: 'failed' },
      reason: { 0: 'none', 1: 'not_home' },
      location_type: { 2: 'mailbox' },
      service_type: { 1: 'same day' },
    });
  });

  it('handles a flat typed list and unknown shapes', () => {
    expect(
      parseCodeNames([
        { type: 'parcel_status', code: 5, name: 'returned' },
        { type: 'service', code: 2, name: 'evening' },
      ]),
    ).toEqual({ status: { 5: 'returned' }, service_type: { 2: 'evening' } });
    expect(parseCodeNames('nonsense')).toEqual({});
    expect(parseCodeNames({ status: 'ok' })).toEqual({});
  });
});

describe('redact', () => {
  it('maskKey shows eight stars and the last four characters', () => {
    expect(maskKey('sbx_demo_9f2c4e7a1b3d5f60')).toBe('********5f60');
    expect(maskKey('abcd')).toBe('********');
    expect(maskKey('abcde')).toBe('********bcde');
  });

  it('redactKey replaces every occurrence', () => {
    expect(redactKey('a KEY b KEY', 'KEY')).toBe('a ***REDACTED*** b ***REDACTED***');
    expect(redactKey('text', '')).toBe('text');
  });
});
