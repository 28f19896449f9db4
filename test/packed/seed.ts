import type { SeedObject, SeedOrganisation } from 'parcels/sandbox';

export const SHOP_KEY = 'key_shop_all_0123456789';
const ALL = ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] as const;

const SHOP: SeedOrganisation = {
  id: 'org_shop',
  name: 'Shop',
  couriers: [
    { code: 'SHOP-BIKE', name: 'Shop bikes' },
    { code: 'SHOP-VAN', name: 'Shop vans' },
  ],
  keys: [{ key: SHOP_KEY, scopes: [...ALL] }],
};

/** One organisation, one key, two couriers; no parcels. */
export const EMPTY_SHOP: SeedObject = { organisations: [SHOP] };

/** The shop at 2 requests a minute: the virtual-time rate-limit pattern. */
export const TIGHT_SHOP: SeedObject = { organisations: [{ ...SHOP, rate_limit: { requests: 2, window_s: 60 } }] };

/** An hour ago and half an hour ago, in Unix seconds: in the past of any test clock that starts now. */
const nowS = Math.floor(Date.now() / 1000);
export const PICKED_UP_AT = nowS - 3600;
export const IN_TRANSIT_AT = nowS - 1800;

/** The shop with one parcel in transit: picked up, then in transit (a seed's parcels, with their events). */
export const SHOP_WITH_PARCEL_IN_TRANSIT: SeedObject = {
  organisations: [
    {
      ...SHOP,
      parcels: [
        {
          courier: 'SHOP-VAN',
          country: 'NL',
          postal_code: '1234AB',
          number: '7',
          events: [
            { status: 1, occurred_at: PICKED_UP_AT },
            { status: 2, occurred_at: IN_TRANSIT_AT },
          ],
        },
      ],
    },
  ],
};
