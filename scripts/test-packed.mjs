// The packed tier (`npm run test:packed`, a step of .ci/run): the package as a shop's test suite meets
// it. Packs dist/ (built before), makes a scratch project in a temp folder, installs the tarball there
// with scripts off and without the network (its dependencies, vitest, TypeScript and Node's types are
// this checkout's, installed by local path; better-sqlite3 is the checkout's built copy), typechecks
// test/packed/ under a strict tsconfig, runs it with vitest (in-process and against one `parcels
// sandbox serve`), then runs the node:test example. Keeps the folder when a step fails (its path is printed).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRICT_CONSUMER_OPTIONS } from './strict-consumer.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'node_modules');
const started = Date.now();
const log = (text) => console.log(`[packed ${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s] ${text}`);

if (!existsSync(join(ROOT, 'dist', 'testing', 'index.js'))) {
  console.error('dist/testing/index.js is missing: run `npm run build` first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'parcels-packed-'));
const project = join(work, 'project');
mkdirSync(project);

/** Runs a step in the scratch project, its output shown; on failure stops, keeping the folder. */
function step(name, command, args, env = {}) {
  log(name);
  const run = spawnSync(command, args, { cwd: project, stdio: 'inherit', env: { ...process.env, ...env } });
  if (run.status !== 0) {
    console.error(`FAIL: ${name} (exit ${run.status ?? run.signal}); the scratch project is kept in ${project}`);
    process.exit(1);
  }
}

log(`npm pack into ${work}`);
const tarball = join(work, execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop());
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'packed-consumer', private: true, type: 'module' }, null, 2)}\n`);
// A strict consumer: the shop's tsconfig, with the explicit-resource-management types `await using` needs.
const compilerOptions = { ...STRICT_CONSUMER_OPTIONS, lib: ['ES2022', 'esnext.disposable'] };
writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2)}\n`);
const suite = join(ROOT, 'test', 'packed');
for (const file of readdirSync(suite)) copyFileSync(join(suite, file), join(project, file));

// Every dependency by local path from this checkout (no registry, no cache): npm links them, and
// each one's own dependencies resolve in the checkout's node_modules. The tarball itself is unpacked
// and installed as a registry's would be. better-sqlite3 (with `bindings`, which finds its addon) is
// then replaced by a copy of the checkout's, its addon already built: the CLI resolves it from the
// project's folder, where a link's target's own dependencies are not found.
const ADDON_LOADER = ['bindings', 'file-uri-to-path'];
const local = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.optionalDependencies ?? {}), ...ADDON_LOADER, 'vitest', 'typescript', '@types/node'];
step('npm install the tarball (scripts off, offline) with the checkout\'s dependencies', 'npm', [
  'install',
  '--ignore-scripts',
  '--offline',
  '--no-audit',
  '--no-fund',
  '--no-package-lock',
  tarball,
  ...local.map((name) => join(MODULES, name)),
]);
const addon = join(project, 'node_modules', 'better-sqlite3');
const built = realpathSync(addon);
rmSync(addon);
cpSync(built, addon, { recursive: true });
log(`better-sqlite3: a copy of ${built}, its addon built`);

step('tsc: test/packed/ under a strict tsconfig (skipLibCheck off)', process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
step('vitest: the suite in-process and against one `parcels sandbox serve`', process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { PARCELS_CONFIG_DIR: join(work, 'config') });
step('node --test: the node:test example', process.execPath, ['--test', 'node-example.test.mjs']);

rmSync(work, { recursive: true, force: true });
log('the packed package passed its consumer suite');
