// Moves a fresh build into dist/ for scripts/build.mjs (which says why): a rename a file, files of new
// names first, then the files replacing old ones, then the old build's leftovers removed.
import { mkdirSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Paths of the files under `dir`, relative to it. */
function filesUnder(dir, under = dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries.flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name), under) : [relative(under, join(dir, entry.name))]));
}

const REAL_FILE_SYSTEM = { mkdir: mkdirSync, rename: renameSync, rm: rmSync };

/**
 * Moves the build in `staged` into `dist`, one rename a file, in the order above; `fs` is the file
 * system's operations (a test passes them through to check dist/ after each step).
 */
export function swapIn(staged, dist, fs = REAL_FILE_SYSTEM) {
  const fresh = filesUnder(staged).sort();
  const old = new Set(filesUnder(dist));
  const moveOrder = [...fresh.filter((file) => !old.has(file)), ...fresh.filter((file) => old.has(file))];
  for (const file of moveOrder) {
    fs.mkdir(dirname(join(dist, file)), { recursive: true });
    fs.rename(join(staged, file), join(dist, file));
  }
  const kept = new Set(fresh);
  for (const file of old) if (!kept.has(file)) fs.rm(join(dist, file), { force: true });
  for (const dir of new Set([...old].filter((file) => !kept.has(file)).map((file) => dirname(join(dist, file))))) {
    // A folder the new build no longer has, once emptied; a folder still in use stays.
    if (dir !== dist && readdirSync(dir).length === 0) rmdirSync(dir);
  }
  fs.rm(staged, { recursive: true, force: true });
}
