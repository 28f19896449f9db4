import type { SeedObject } from '../../src/sandbox/index.js';

/** The seed every CLI test runs against: keys the tests know, and nothing of the demo seed. */
export const FULL_KEY = 'test_full_key_5a8d1c0e9b7f3a2d6c4e';
export const READ_ONLY_KEY = 'test_read_key_0c3f8a1e6d2b9f47a5c1';
export const EXPIRED_KEY = 'test_expired_key_7e1a3c5b9d2f4a6c8e';
export const OTHER_ORG_KEY = 'test_other_key_2b4d6f8a1c3e5a7c9e0b';
export const ALL_KEYS = [FULL_KEY, READ_ONLY_KEY, EXPIRED_KEY, OTHER_ORG_KEY];

export const TEST_SEED: SeedObject = {
  organisations: [
    {
      id: 'org_a',
      name: 'A',
      couriers: [
        { code: 'A-BIKE', name: 'A bikes' },
        { code: 'A-VAN', name: 'A vans' },
      ],
      keys: [
        { key: FULL_KEY, scopes: ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] },
        { key: READ_ONLY_KEY, scopes: ['deliveries:read'] },
        { key: EXPIRED_KEY, scopes: ['deliveries:read', 'deliveries:write'], expires_at: 1_000_000_000 },
      ],
    },
    {
      id: 'org_b',
      name: 'B',
      couriers: [{ code: 'B-CAR', name: 'B cars' }],
      keys: [{ key: OTHER_ORG_KEY, scopes: ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] }],
    },
  ],
  rate_limit: { requests: 100_000, window_s: 60 },
};
