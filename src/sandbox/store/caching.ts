import type { ParcelRecord, Repository } from './types.js';

/** Entries kept at most; the cache is emptied when it reaches this size. */
const CACHE_LIMIT = 50_000;

/**
 * A Repository whose parcel reads by id are served from memory while nothing changed them.
 *
 * Its contract: a read reflects every commit made before the latest `dataVersion()` call on it. A
 * change of that version (a commit by another connection, e.g. another process on the file) empties
 * the cache. The sandbox calls it after reading a request and before serving it (once for all the
 * requests read in one turn, intake.ts), so every request sees every commit made before it was
 * sent, and a GET costs at most one change check, not one per read. This
 * connection's own writes drop the entries they touch, and nothing is cached inside a transaction
 * (it may still roll back).
 */
export function withParcelCache(repo: Repository): Repository {
  const cache = new Map<string, ParcelRecord>();
  let seenVersion = -1;
  return {
    ...repo,
    dataVersion() {
      let version: number;
      try {
        version = repo.dataVersion();
      } catch (err) {
        // Not knowing whether anything changed, forget everything.
        cache.clear();
        seenVersion = -1;
        throw err;
      }
      if (version !== seenVersion || cache.size >= CACHE_LIMIT) {
        cache.clear();
        seenVersion = version;
      }
      return version;
    },
    getParcel(orgId, entryId) {
      if (repo.inTransaction()) return repo.getParcel(orgId, entryId);
      const hit = cache.get(entryId);
      if (hit) return hit.org_id === orgId ? hit : undefined;
      const row = repo.getParcel(orgId, entryId);
      if (row) cache.set(entryId, Object.freeze(row));
      return row;
    },
    emptyData() {
      cache.clear();
      repo.emptyData();
    },
    updateParcel(parcel, fields, now) {
      cache.delete(parcel.entry_id);
      return repo.updateParcel(parcel, fields, now);
    },
    setParcelStatus(parcel, status, now) {
      cache.delete(parcel.entry_id);
      return repo.setParcelStatus(parcel, status, now);
    },
  };
}
