// Imports a TypeScript module of src/ from a plain Node script: esbuild (installed with tsup) bundles
// it, packages left external, into node_modules/.cache, where those packages resolve.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function importSource(entry) {
  const dir = join(ROOT, 'node_modules', '.cache', 'parcels-scripts');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, basename(entry).replace(/\.ts$/, '.mjs'));
  await build({ entryPoints: [join(ROOT, entry)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
  return import(`${pathToFileURL(outfile).href}?at=${Date.now()}`);
}
