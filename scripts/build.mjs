// `npm run build` (so also `npm install`'s and `npm pack`'s prepare): tsup builds into a fresh folder
// beside dist/, which is then moved into dist/ a file at a time by rename. dist/ itself is never
// removed, and each file is replaced whole, so a CLI or sandbox running from the checkout during a
// build or a pack keeps loading: files of new names (content-hashed chunks) arrive before the files
// that replace old ones (the entries that import them), and files the new build no longer has go last.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { swapIn } from './dist-swap.mjs';

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
