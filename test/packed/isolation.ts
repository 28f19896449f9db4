/**
 * Two test files side by side against one `serve`, each in a tenant of its own (isolation-a and
 * isolation-b): each sets up its parcels, clock and fault, waits until the other has set up its own,
 * then sees only its own. They meet through the serve's own request log (outside both tenants):
 * each sends one marked request there and long-polls the log for the other's.
 */
import { DEMO_API_KEY } from 'parcels/sandbox';
import type { LogEntry } from 'parcels/testing';
import { connectTestSandbox } from 'parcels/testing';
import { expect, inject, it } from 'vitest';
import { EMPTY_SHOP, SHOP_KEY } from './seed.js';
import { ShopClient } from './shop.js';

const MARK = 'courier=ready-';

/** Resolves once the serve's own log holds the request marked `ready-<other>`; the sandbox does the waiting (`wait`). */
async function meet(me: string, other: string): Promise<void> {
  const { url, adminToken } = inject('serve');
  await fetch(`${url}/deliveries/v1/parcels?courier=ready-${me}`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } });
  for (let after = 0; ; ) {
    const response = await fetch(`${url}/_sandbox/v1/logs?after=${after}&wait=30000`, { headers: { authorization: `Bearer ${adminToken}` } });
    const page = ((await response.json()) as { data: { entries: LogEntry[]; latest: number } }).data;
    if (page.entries.some((e) => e.query === `${MARK}${other}`)) return;
    after = page.latest;
  }
}

export function isolationFile(me: 'a' | 'b', other: 'a' | 'b'): void {
  it(`tenant ${me} sees none of tenant ${other}'s parcels, clock, faults or log entries`, async () => {
    const serve = await connectTestSandbox(inject('serve'));
    await using sbx = await serve.tenant(`iso-${me}`, { seed: EMPTY_SHOP });
    expect(sbx.url).toBe(`${serve.url}/t/iso-${me}`);
    const shop = new ShopClient(sbx.url, SHOP_KEY);
    // The same organisation, key and courier in both tenants: only the tenant tells them apart.
    const id = await shop.createParcel('SHOP-BIKE', me === 'a' ? '1' : '2', `order-${me}-1001`);
    const start = (await sbx.clock.freeze()).now_ms;
    const moved = (await sbx.clock.advance(me === 'a' ? '2d' : '5h')).now_ms;
    const rule = await sbx.faults.add({ route: 'parcels.get', status: 503, code: `outage_${me}`, message: `staged by ${me}` });

    await meet(me, other);

    expect((await shop.allParcels({ courier: 'SHOP-BIKE' }, 50)).map((p) => p.entry_id)).toEqual([id]);
    expect(moved - start).toBe(me === 'a' ? 2 * 86_400_000 : 5 * 3_600_000);
    expect(await sbx.clock.now()).toBe(moved);
    expect((await sbx.faults.list()).rules.map((r) => [r.id, r.code])).toEqual([[rule.id, `outage_${me}`]]);
    const get = await shop.send('GET', `/deliveries/v1/parcels/${id}`);
    expect([get.status, get.body.error?.code]).toEqual([503, `outage_${me}`]);
    const log = await sbx.logs({ bodies: true });
    expect(log.map((e) => [e.method, e.route, e.status, e.headers?.['idempotency-key'] ?? null])).toEqual([
      ['POST', 'parcels.create', 201, `order-${me}-1001`],
      ['GET', 'parcels.list', 200, null],
      ['GET', 'parcels.get', 503, null],
    ]);
    // The serve's own log holds the two marks and none of either tenant's requests.
    expect((await serve.logs()).every((e) => e.query?.startsWith(MARK))).toBe(true);
  });
}
