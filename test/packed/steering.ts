/**
 * One suite, run in-process (steer-in-process.test.ts) and against a running `parcels sandbox serve`
 * (steer-serve.test.ts): `open` is the only difference.
 */
import type { SeedObject } from 'parcels/sandbox';
import type { TestSandbox } from 'parcels/testing';
import { describe, expect, it } from 'vitest';
import { EMPTY_SHOP, IN_TRANSIT_AT, PICKED_UP_AT, SHOP_KEY, SHOP_WITH_PARCEL_IN_TRANSIT, TIGHT_SHOP } from './seed.js';
import { ShopClient } from './shop.js';

export type OpenSandbox = (seed: SeedObject) => Promise<TestSandbox>;

export function steeringSuite(open: OpenSandbox): void {
  describe('the request log', () => {
    it('shows the Idempotency-Key the shop sent and the cursor of its second page', async () => {
      await using sbx = await open(EMPTY_SHOP);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      await shop.createParcel('SHOP-BIKE', '1', 'order-1001');
      await shop.createParcel('SHOP-BIKE', '2', 'order-1002');
      expect(await shop.allParcels({ courier: 'SHOP-BIKE' })).toHaveLength(2);

      const creates = await sbx.logs({ route: 'parcels.create', bodies: true });
      expect(creates.map((e) => [e.method, e.status, e.headers?.['idempotency-key']])).toEqual([
        ['POST', 201, 'order-1001'],
        ['POST', 201, 'order-1002'],
      ]);
      expect(await sbx.logs({ idempotencyKey: 'order-1002' })).toHaveLength(1);

      const lists = await sbx.logs({ route: 'parcels.list' });
      expect(lists.map((e) => e.status)).toEqual([200, 200]);
      expect(lists[0]?.query).toBe('courier=SHOP-BIKE&limit=1');
      expect(lists[1]?.query).toMatch(/^courier=SHOP-BIKE&limit=1&cursor=[^&]+$/);
    });
  });

  describe('an aimed fault', () => {
    it('fails exactly one POST …/attempts with 503, and the retry with the same key succeeds', async () => {
      await using sbx = await open(EMPTY_SHOP);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      const id = await shop.createParcel('SHOP-VAN', '3');
      const rule = await sbx.faults.add({ route: 'attempts.create', status: 503, code: 'service_unavailable', message: 'staged outage', times: 1 });
      expect(rule).toMatchObject({ route: 'attempts.create', status: 503, times: 1, remaining: 1, hits: 0 });
      expect(rule.id).toMatch(/^flt_\d+$/);

      const answers = await shop.reportDelivered(id, Math.floor((await sbx.clock.now()) / 1000));
      expect(answers.map((a) => [a.status, a.body.error?.code ?? null])).toEqual([
        [503, 'service_unavailable'],
        [201, null],
      ]);
      expect((await sbx.faults.list()).rules).toEqual([expect.objectContaining({ id: rule.id, remaining: 0, hits: 1 })]);
      const attempts = await sbx.logs({ route: 'attempts.create' });
      expect(attempts.map((e) => [e.status, e.fault])).toEqual([
        [503, rule.id],
        [201, null],
      ]);
      // Only the one request: the shop's other routes never saw the fault.
      expect((await sbx.logs({ status: '5xx' })).map((e) => e.route)).toEqual(['attempts.create']);
    });
  });

  describe('reset', () => {
    it('after a clock move, leaves an empty sandbox at real time', async () => {
      await using sbx = await open(EMPTY_SHOP);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      await shop.createParcel('SHOP-BIKE', '4');
      await sbx.faults.add({ route: 'parcels.list', status: 500, times: 5 });
      const moved = await sbx.clock.advance('2d');
      const before = Date.now();
      expect(moved.now_ms).toBeGreaterThan(before + 47 * 3_600_000);

      const clock = await sbx.reset();
      const after = Date.now();
      // Real time again: between the wall-clock readings taken around the reset.
      expect(clock.now_ms).toBeGreaterThanOrEqual(before);
      expect(clock.now_ms).toBeLessThanOrEqual(after);
      expect(clock).toMatchObject({ frozen: false, speed: 1 });
      expect((await sbx.faults.list()).rules).toEqual([]);
      expect(await shop.allParcels()).toEqual([]);
    });
  });

  describe('a seed with parcels', () => {
    it('holds a parcel in transit with its two events', async () => {
      await using sbx = await open(SHOP_WITH_PARCEL_IN_TRANSIT);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      const [parcel, ...others] = await shop.allParcels();
      expect(others).toEqual([]);
      expect(parcel).toMatchObject({ courier: 'SHOP-VAN', status: 2 });
      const events = await shop.send('GET', `/deliveries/v1/parcels/${parcel?.entry_id}/events`);
      expect(events.status).toBe(200);
      const list = (events.body.data as { events: Array<{ status: number; occurred_at: number }> }).events;
      expect(list.map((e) => [e.status, e.occurred_at])).toEqual([
        [1, PICKED_UP_AT],
        [2, IN_TRANSIT_AT],
      ]);
    });
  });

  describe('virtual time', () => {
    it('a rate-limited shop waits out the window by moving the test clock, not by sleeping', async () => {
      await using sbx = await open(TIGHT_SHOP);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await shop.send('GET', '/deliveries/v1/parcels')).status);
      expect(statuses).toEqual([200, 200, 429]);
      await sbx.clock.advance('61s');
      expect((await shop.send('GET', '/deliveries/v1/parcels')).status).toBe(200);
    });

    it("a scenario runs to its end when the clock moves '6h'", async () => {
      await using sbx = await open(EMPTY_SHOP);
      const shop = new ShopClient(sbx.url, SHOP_KEY);
      const id = await shop.createParcel('SHOP-VAN', '5');
      await sbx.scenarios.assign(id, 'happy');
      await sbx.clock.advance('6h');
      expect((await shop.send('GET', `/deliveries/v1/parcels/${id}`)).body.data).toMatchObject({ status: 4 });
      expect(await sbx.scenarios.get(id)).toMatchObject({ scenario: 'happy', done: true });
    });
  });
}
