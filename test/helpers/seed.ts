import type { SeedObject } from '../../src/sandbox/index.js';

/**
 * The one seed every test runs against (CLI, end-to-end and sandbox tests alike): keys the tests
 * know, and nothing of the demo seed. test/sandbox/helpers.ts re-exports it.
 */
// Keys of organisation A (verified): the CLI tests' names first, then the sandbox tests'.
export const FULL_KEY = 'test_full_key_5a8d1c0e9b7f3a2d6c4e';
export const READ_ONLY_KEY = 'test_read_key_0c3f8a1e6d2b9f47a5c1';
export const EXPIRED_KEY = 'test_expired_key_7e1a3c5b9d2f4a6c8e';
export const KEY_A = 'key_a_all_0123456789';
export const KEY_A_READ = 'key_a_read_0123456789';
export const KEY_A_EXPIRED = 'key_a_expired_0123456789';
export const KEY_USAGE_ONLY = 'key_a_usage_only_0123';
// Organisation B (another tenant), U (unverified) and R (its own tight rate limit).
export const OTHER_ORG_KEY = 'test_other_key_2b4d6f8a1c3e5a7c9e0b';
export const KEY_B = 'key_b_all_0123456789';
export const KEY_U = 'test_unverified_key_3d5f7a9c1e2b4d6f';
export const KEY_R = 'key_r_ratelimited_012';
export const ALL_KEYS = [FULL_KEY, READ_ONLY_KEY, EXPIRED_KEY, KEY_A, KEY_A_READ, KEY_A_EXPIRED, KEY_USAGE_ONLY, OTHER_ORG_KEY, KEY_B, KEY_U, KEY_R];

const ALL = ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] as const;

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
        { key: FULL_KEY, scopes: [...ALL] },
        { key: READ_ONLY_KEY, scopes: ['deliveries:read'] },
        { key: EXPIRED_KEY, scopes: ['deliveries:read', 'deliveries:write'], expires_at: 1_000_000_000 },
        { key: KEY_A, scopes: [...ALL], expires_at: 1893456000 },
        { key: KEY_A_READ, scopes: ['deliveries:read'] },
        { key: KEY_A_EXPIRED, scopes: [...ALL], expires_at: 1_000_000_000 },
        { key: KEY_USAGE_ONLY, scopes: ['usage:read'] },
      ],
    },
    {
      id: 'org_b',
      name: 'B',
      couriers: [{ code: 'B-BIKE', name: 'B bikes' }],
      keys: [
        { key: OTHER_ORG_KEY, scopes: [...ALL] },
        { key: KEY_B, scopes: [...ALL] },
      ],
    },
    { id: 'org_u', name: 'U', verified: false, couriers: [{ code: 'U-1', name: 'U one' }], keys: [{ key: KEY_U, scopes: [...ALL] }] },
    {
      id: 'org_r',
      name: 'R',
      couriers: [{ code: 'R-1', name: 'R one' }],
      keys: [{ key: KEY_R, scopes: [...ALL] }],
      rate_limit: { requests: 3, window_s: 60 },
    },
  ],
  rate_limit: { requests: 100_000, window_s: 60 },
};
