import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { etagReadersDir, openEtagCache } from './etags.js';
import type { EtagCache } from './etags.js';
import { readerOf } from './reader.js';

/** A reader's log untouched this long belongs to a terminal long closed. */
const STALE_READER_MS = 30 * 24 * 3600 * 1000;

/**
 * The ETag cache a command uses: what `patch` sends by default is what *this* reader last saw
 * (config/reader.ts), so two terminals of one login cannot overwrite each other's change without a
 * 412. Every ETag seen is also kept in the per-user log, which serves readers with no terminal (a
 * script's `$(parcels get …)` then `parcels patch …`) and lists the ids that prefixes resolve
 * against — one list per target, whoever read them.
 */
export function openReaderEtags(env: NodeJS.ProcessEnv, target: string, reader = readerOf(env)): EtagCache {
  const shared = openEtagCache(env, target);
  if (reader === undefined) return shared;
  const own = openEtagCache(env, target, { reader });
  let pruned = false;
  return {
    path: own.path,
    get: (id) => own.get(id),
    ids: () => shared.ids(),
    async set(id, etag) {
      await Promise.all([own.set(id, etag), shared.set(id, etag)]);
      if (!pruned) {
        pruned = true;
        await pruneStaleReaders(etagReadersDir(env, target), own.path);
      }
    },
    async delete(id) {
      await Promise.all([own.delete(id), shared.delete(id)]);
    },
  };
}

/** Removes the logs of readers not heard from in 30 days (never a link, never `keep`). */
async function pruneStaleReaders(dir: string, keep: string): Promise<void> {
  const cutoff = Date.now() - STALE_READER_MS;
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (path === keep || !name.endsWith('.log')) continue;
    try {
      const info = await lstat(path);
      if (info.isFile() && info.mtimeMs < cutoff) await unlink(path);
    } catch {
      // Another process pruned it first.
    }
  }
}
