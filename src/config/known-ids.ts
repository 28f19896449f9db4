/**
 * Parcel ids seen in recent output, per target (`targetId`), so a unique prefix of one can stand in
 * for the whole id (`parcels get 3f1c9a2b`). Bounded to the most recent `KNOWN_IDS_MAX`; written
 * atomically (mode 0600). Two commands finishing at once may each keep only their own new ids:
 * the cost is a prefix that needs one more `list` to resolve, never a wrong id.
 */
import { writeFileAtomic } from './atomic.js';
import { readOwnFile } from './own-file.js';
import { knownIdsPath } from './paths.js';

export const KNOWN_IDS_MAX = 1000;

export interface KnownIds {
  /** Ids remembered, oldest first. */
  all(): Promise<string[]>;
  /** Adds ids (moving ones already known to the most recent end) and keeps the newest `max`. */
  remember(ids: readonly string[]): Promise<void>;
  /** How many stay known. */
  readonly max: number;
}

export function openKnownIds(env: NodeJS.ProcessEnv, target: string, max = KNOWN_IDS_MAX): KnownIds {
  const path = knownIdsPath(env, target);
  const all = async (): Promise<string[]> => {
    const text = readOwnFile(path);
    if (text === undefined) return [];
    try {
      const value = JSON.parse(text) as unknown;
      return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      // A damaged file only costs the prefixes it held; the next write replaces it.
      return [];
    }
  };
  return {
    all,
    max,
    async remember(ids) {
      if (ids.length === 0) return;
      const fresh = new Set(ids);
      const known = await all();
      const kept = known.filter((id) => !fresh.has(id));
      const next = [...kept, ...fresh].slice(-max);
      // Showing the same parcels again (a repeated `get`) changes nothing: no write for it.
      if (next.length === known.length && next.every((id, i) => id === known[i])) return;
      // A lost write costs only prefixes: not worth the two fsyncs on every command that shows new ids.
      await writeFileAtomic(path, JSON.stringify(next), { durable: false });
    },
  };
}

/**
 * The ids a long run prints (bulk results, an outbox flush), remembered together at its end: only
 * the newest `KNOWN_IDS_MAX` could stay known, so no more are held, however long the run.
 */
export function printedIds(): { add(id: string | undefined): void; rememberIn(known: KnownIds): Promise<void> } {
  let ids: string[] = [];
  return {
    add(id) {
      if (id === undefined) return;
      ids.push(id);
      if (ids.length >= 2 * KNOWN_IDS_MAX) ids = ids.slice(-KNOWN_IDS_MAX);
    },
    rememberIn: (known) => known.remember(ids.slice(-KNOWN_IDS_MAX)),
  };
}
