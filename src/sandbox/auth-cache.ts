import type { KeyGrant, KeyLookup } from './auth.js';

/** Headers remembered at most; the cache is emptied when it reaches this size. */
const CACHE_LIMIT = 1024;

/**
 * Remembers successful key lookups by the exact Authorization header, so a client that sends the
 * same key on every request is not hashed and compared again each time. The key ring behind it is
 * loaded once when the sandbox starts and never changes while it runs (in this process or because
 * of another process on the file), so an entry never goes stale; expiry is still checked on every
 * request by `authenticate`. Failed lookups are not remembered: unknown keys cannot fill the cache.
 */
export function withAuthCache(keys: KeyLookup): KeyLookup {
  const known = new Map<string, KeyGrant>();
  return {
    lookup(header) {
      if (header === undefined) return keys.lookup(header);
      const hit = known.get(header);
      if (hit) return hit;
      const grant = keys.lookup(header);
      if (known.size >= CACHE_LIMIT) known.clear();
      known.set(header, grant);
      return grant;
    },
  };
}
