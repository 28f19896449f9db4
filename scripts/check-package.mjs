// Checks an installed copy of the package as a consumer meets it: `node scripts/check-package.mjs DIR`
// (DIR: node_modules/parcels of an install from the packed tarball; .ci/run's packed global install).
// 1. Its declarations compile in a strict consumer project (strict, exactOptionalPropertyTypes,
//    skipLibCheck: false) that imports every public entry, with this checkout's TypeScript.
// 2. Every relative link of its Markdown files, and every docs/ file its code names, is in the package.
// 3. Its Markdown names no path of the machine that built it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRICT_CONSUMER_OPTIONS } from './strict-consumer.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const packageDir = resolve(process.argv[2] ?? '');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const problems = new Set();

// 1. The declarations in a strict consumer.
const entries = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === 'object' && target.types !== undefined)
  .map(([subpath]) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
const consumer = mkdtempSync(join(tmpdir(), 'parcels-consumer-'));
try {
  mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
  symlinkSync(packageDir, join(consumer, 'node_modules', manifest.name), 'dir');
  // A Node project has Node's types; the checkout's are the ones the package was built against.
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(consumer, 'node_modules', '@types', 'node'), 'dir');
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const compilerOptions = STRICT_CONSUMER_OPTIONS;
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }, null, 2));
  writeFileSync(join(consumer, 'index.ts'), entries.map((entry, i) => `import * as entry${i} from '${entry}';\nexport { entry${i} };\n`).join(''));
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { encoding: 'utf8', stdio: 'pipe' });
    console.log(`types: ${entries.join(', ')} compile with ${JSON.stringify(compilerOptions)}`);
  } catch (error) {
    problems.add(`the declarations do not compile in a strict consumer project:\n${error.stdout}${error.stderr}`);
  }
} finally {
  rmSync(consumer, { recursive: true, force: true });
}

// 2 and 3. Links, named docs and build-machine paths.
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}
const shipped = filesUnder(packageDir);
const inPackage = (path) => existsSync(path) && !relative(packageDir, path).startsWith('..');
const buildPaths = [ROOT, '/work/'];
for (const file of shipped.filter((path) => path.endsWith('.md'))) {
  const text = readFileSync(file, 'utf8');
  const name = relative(packageDir, file);
  for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    if (!inPackage(join(dirname(file), target))) problems.add(`${name} links to ${target}, which is not in the package`);
  }
  for (const path of buildPaths) if (text.includes(path)) problems.add(`${name} names ${path}, a path of the machine that built it`);
}
for (const file of shipped.filter((path) => path.endsWith('.js'))) {
  for (const [doc] of readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w-]+\.md\b/g)) {
    if (!inPackage(join(packageDir, doc))) problems.add(`${relative(packageDir, file)} names ${doc}, which is not in the package`);
  }
}
console.log(`docs: ${shipped.filter((path) => path.endsWith('.md')).length} Markdown files checked`);

if (problems.size > 0) {
  console.error([...problems].map((problem) => `FAIL: ${problem}`).join('\n'));
  process.exit(1);
}
