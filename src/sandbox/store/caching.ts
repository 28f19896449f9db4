import type { ParcelRecord, Repository } from './types.js';

/** Entries kept at most; the cache is emptied when it reaches this size. */
const CACHE_LIMIT = 50_000;

/**
 * A Repository whose parcel reads by id are served from memory while nothing changed them. Each
 * read first asks the database's PRAGMA data_version, so a commit by any other connection (another
 * process on the file) empties the cache before the read. This connection's own writes drop the
 * entries they touch, and nothing is cached inside a transaction (it may still roll back).
 */
export function withParcelCache(repo: Repository): Repository {
  const cache = new Map<string, ParcelRecord>();
  let seenVersion = -1;
  const fresh = (): void => {
    const v = repo.dataVersion();
    if (v !== seenVersion || cache.size >= CACHE_LIMIT) {
      cache.clear();
      seenVersion = v;
    }
  };
  const drop = (entryId: string): void => {
    cache.delete(entryId);
  };
  return {
    ...repo,
    getParcel(orgId, entryId) {
      if (repo.inTransaction()) return repo.getParcel(orgId, entryId);
      fresh();
      const hit = cache.get(entryId);
      if (hit) return hit.org_id === orgId ? hit : undefined;
      const row = repo.getParcel(orgId, entryId);
      if (row) cache.set(entryId, Object.freeze(row));
      return row;
    },
    updateParcel(parcel, fields, now) {
      drop(parcel.entry_id);
      return repo.updateParcel(parcel, fields, now);
    },
    setParcelStatus(parcel, status, now) {
      drop(parcel.entry_id);
      return repo.setParcelStatus(parcel, status, now);
    },
  };
}
