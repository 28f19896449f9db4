/**
 * The inspector's page: a fixed HTML shell (no server data in it) and the script and style sheet the
 * build writes to dist/inspector/ (tsup.config.ts), read once from the package and kept in memory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sandbox inspector</title>
<link rel="stylesheet" href="app.css">
<script type="module" src="app.js"></script>
</head>
<body>
<noscript>The sandbox inspector needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;

/** The page's files by name (a Map: a name like `__proto__` or `toString` is no file). */
export const ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['app.js', 'text/javascript; charset=utf-8'],
  ['app.css', 'text/css; charset=utf-8'],
]);

/** The built files' folder: dist/inspector of this package (found from dist/, dist/sandbox/ or src/sandbox/inspector/). */
function assetsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    const candidate = join(dir, 'dist', 'inspector');
    if (existsSync(join(candidate, 'app.js'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

const loaded = new Map<string, Buffer>();

/** A built file's bytes, or undefined when the package was not built (a source checkout before `npm run build`). */
export function asset(name: string): Buffer | undefined {
  const known = loaded.get(name);
  if (known !== undefined) return known;
  const dir = assetsDir();
  if (dir === undefined) return undefined;
  const bytes = readFileSync(join(dir, name));
  loaded.set(name, bytes);
  return bytes;
}
