/**
 * Parcel ids seen in recent output, per target (`targetId`), so a unique prefix of one can stand in
 * for the whole id (`parcels get 3f1c9a2b`). Bounded to the most recent `KNOWN_IDS_MAX`; written
 * atomically (mode 0600). Two commands finishing at once may each keep only their own new ids:
 * the cost is a prefix that needs one more `list` to resolve, never a wrong id.
 */
import { writeFileAtomic } from './atomic.js';
import { readOwnFile } from './own-file.js';
import { knownIdsPath } from './paths.js';
import type { ParcelNote } from '../schemas/parcel-note.js';
import { readNote } from '../schemas/parcel-note.js';

export const KNOWN_IDS_MAX = 1000;

export interface KnownIds {
  /** Ids remembered, oldest first. */
  all(): Promise<string[]>;
  /** Ids remembered with what completion may say of each (src/schemas/parcel-note.ts), oldest first. */
  notes(): Promise<ParcelNote[]>;
  /**
   * Adds ids (moving ones already known to the most recent end) and keeps the newest `max`; `notes`:
   * the parcels shown with them, whose checked status and postcode replace what was known.
   */
  remember(ids: readonly string[], notes?: readonly ParcelNote[]): Promise<void>;
  /** How many stay known. */
  readonly max: number;
}

/** A note as the file holds it: the id alone when nothing is known of it (the file's first form). */
function stored(note: ParcelNote): string | ParcelNote {
  return note[1] === null && note[2] === null ? note[0] : note;
}

export function openKnownIds(env: NodeJS.ProcessEnv, target: string, max = KNOWN_IDS_MAX): KnownIds {
  const path = knownIdsPath(env, target);
  const notes = async (): Promise<ParcelNote[]> => {
    const text = readOwnFile(path);
    if (text === undefined) return [];
    try {
      const value = JSON.parse(text) as unknown;
      return Array.isArray(value) ? value.map(readNote).filter((note): note is ParcelNote => note !== undefined) : [];
    } catch {
      // A damaged file only costs the prefixes it held; the next write replaces it.
      return [];
    }
  };
  return {
    all: async () => (await notes()).map(([id]) => id),
    notes,
    max,
    async remember(ids, shown = []) {
      if (ids.length === 0) return;
      const fresh = new Set(ids);
      const known = await notes();
      const before = new Map(known.map((note) => [note[0], note]));
      const now = new Map(shown.map((note) => [note[0], note]));
      const kept = known.filter(([id]) => !fresh.has(id));
      const added = [...fresh].map((id): ParcelNote => now.get(id) ?? before.get(id) ?? [id, null, null]);
      const next = JSON.stringify([...kept, ...added].slice(-max).map(stored));
      // Showing the same parcels again (a repeated `get`) changes nothing: no write for it.
      if (next === JSON.stringify(known.map(stored))) return;
      // A lost write costs only prefixes: not worth the two fsyncs on every command that shows new ids.
      await writeFileAtomic(path, next, { durable: false });
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
