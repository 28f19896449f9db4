import { describe, expect, it } from 'vitest';
import type { KeyGrant, KeyLookup } from '../../src/sandbox/auth.js';
import { KeyRing, authenticate, recognises } from '../../src/sandbox/auth.js';
import { withAuthCache } from '../../src/sandbox/auth-cache.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { sha256 } from '../../src/sandbox/hash.js';

const org = { id: 'org_a', name: 'A', verified: true, rateLimit: null, couriers: [] };
const ring = new KeyRing([org], [
  { hash: sha256('good-key-0123'), orgId: 'org_a', scopes: ['deliveries:read'], expiresAt: 2_000 },
]);

/** The ring, counting how often it is asked. */
function counted(keys: KeyLookup): KeyLookup & { asked: number } {
  const c = {
    asked: 0,
    lookup(header: string | undefined): KeyGrant {
      c.asked++;
      return keys.lookup(header);
    },
  };
  return c;
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return err instanceof SandboxError ? `${err.status} ${err.code}` : String(err);
  }
  return 'no error';
};

describe('the auth cache in front of the key ring', () => {
  it('asks the ring once per header it accepted, and every time for a header it refused', () => {
    const inner = counted(ring);
    const keys = withAuthCache(inner);
    expect(authenticate(keys, 'Bearer good-key-0123', 1_000).org.id).toBe('org_a');
    expect(authenticate(keys, 'Bearer good-key-0123', 1_000).org.id).toBe('org_a');
    expect(inner.asked).toBe(1);
    expect(codeOf(() => authenticate(keys, 'Bearer bad-key-0123', 1_000))).toBe('401 invalid_credentials');
    expect(codeOf(() => authenticate(keys, 'Bearer bad-key-0123', 1_000))).toBe('401 invalid_credentials');
    expect(codeOf(() => authenticate(keys, undefined, 1_000))).toBe('401 missing_credentials');
    expect(inner.asked).toBe(4);
  });

  it('a remembered key still expires: expiry is checked on every request', () => {
    const keys = withAuthCache(ring);
    expect(authenticate(keys, 'Bearer good-key-0123', 1_999).org.id).toBe('org_a');
    expect(codeOf(() => authenticate(keys, 'Bearer good-key-0123', 2_000))).toBe('401 expired_credentials');
    expect(recognises(keys, 'Bearer good-key-0123')).toBe(true);
    expect(recognises(keys, 'Bearer other-0123')).toBe(false);
  });
});
