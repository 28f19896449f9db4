// `npm run build` (so also `npm install`'s and `npm pack`'s prepare): tsup builds into a fresh folder
// beside dist/, which is then moved into dist/ a file at a time by rename. dist/ itself is never
// removed, and each file is replaced whole, so a CLI or sandbox running from the checkout during a
// build or a pack keeps loading: files of new names (content-hashed chunks) arrive before the files
// that replace old ones (the entries that import them), and files the new build no longer has go last.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Beside dist/, on the same file system, so each rename is one atomic step.
  const staged = mkdtempSync(join(root, '.dist-next-'));
  const manifest = createRequire(import.meta.url).resolve('tsup/package.json');
  const tsupCli = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.tsup);
  const tsup = spawnSync(process.execPath, [tsupCli], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PARCELS_BUILD_DIR: relative(root, staged) },
  });
  if (tsup.status !== 0) {
    rmSync(staged, { recursive: true, force: true });
    process.exit(tsup.status ?? 1);
  }
  swapIn(staged, join(root, 'dist'));
}
