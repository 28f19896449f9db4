import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

// The speed tricks kept (docs/contributing.md, "Speed tricks kept"): each test fails when its trick stops working.

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
let runs = 0;
beforeAll(async () => {
  sandbox = await startSandbox({ db: ':memory:', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'speed-tricks-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the built CLI with a preload that records, at exit, Node's built-in modules loaded and the CommonJS files required. */
async function loadedBy(args: string[]): Promise<{ stdout: string; builtins: string[]; files: string[] }> {
  const report = join(dir, `loaded-${++runs}.json`);
  const preload = join(dir, `report-${runs}.cjs`);
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n`);
  const result = await parcels(args, { env: binaryEnv({ NODE_OPTIONS: `--require ${preload}` }) });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const { builtins, files } = JSON.parse(readFileSync(report, 'utf8')) as { builtins: string[]; files: string[] };
  return { stdout: result.stdout, builtins, files: files.filter((f) => f !== preload).map((f) => f.replace(/^.*[\\/](bin|dist)[\\/]/, '$1/')) };
}

/** ES module files of the CLI (bin/ and dist/) a command loads, counted by a module.register() load hook. */
async function esModulesLoadedBy(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; files: string[] }> {
  const list = join(dir, `esm-${++runs}.txt`);
  const hooks = join(dir, 'count-hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { if (/[\\\\/](bin|dist)[\\\\/]/.test(url)) appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }\n`);
  const register = join(dir, 'count-register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const result = await parcels(args, { env: { ...env, NODE_OPTIONS: `--import ${pathToFileURL(register).href}` } });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { stdout: result.stdout, files: readFileSync(list, 'utf8').trim().split('\n') };
}

const ES_MODULE_LOADER = 'NativeModule internal/modules/esm/module_job';
/**
 * Node 20 loads its ES module job only for an ES module, so its absence proves none ran; Node 22
 * and later load it for every entry point, CommonJS too, and there the files in require.cache
 * (only the launcher and the one CommonJS file) are the proof.
 */
const ES_LOADER_SHOWS_AN_ES_MODULE = Number(process.versions.node.split('.')[0]) < 22;

describe('the CommonJS fast path (bin/parcels.js, dist/fast-path.cjs, dist/complete.cjs)', () => {
  it('--version and --help load one small CommonJS file, no ES module and, piped, no stream modules (the answer goes straight to fd 1)', async () => {
    for (const args of [['--version'], ['--help']]) {
      const { stdout, builtins, files } = await loadedBy(args);
      expect(stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+\n$/ : /^Usage: parcels /);
      expect(files).toEqual(['bin/parcels.js', 'dist/fast-path.cjs']);
      if (ES_LOADER_SHOWS_AN_ES_MODULE) expect(builtins).not.toContain(ES_MODULE_LOADER);
      expect(builtins).not.toContain('NativeModule stream');
    }
  });

  it('a command line of more than two words skips dist/fast-path.cjs: its answers are at most two words', async () => {
    const { stdout, files } = await loadedBy(['get', '--help', '--no-color']);
    expect(stdout).toMatch(/^Usage: parcels get \[options\] <id>\n/);
    expect(files).toEqual(['bin/parcels.js']);
    // Two words still ask the fast path (`help TOPIC`).
    expect((await loadedBy(['help', 'exit-codes'])).files).toEqual(['bin/parcels.js', 'dist/fast-path.cjs']);
  });

  it('completion loads dist/complete.cjs alone, no ES module and no stream modules (its answer goes straight to fd 1)', async () => {
    const { stdout, builtins, files } = await loadedBy(['__complete', 'sandbox', '']);
    expect(stdout.split('\n').map((line) => line.split('\t')[0])).toContain('serve');
    expect(files).toEqual(['bin/parcels.js', 'dist/complete.cjs']);
    if (ES_LOADER_SHOWS_AN_ES_MODULE) expect(builtins).not.toContain(ES_MODULE_LOADER);
    expect(builtins).not.toContain('NativeModule stream');
  });

  it('the command modules stay out of the CommonJS files (only src/commands/loaders.ts names them)', () => {
    // With them bundled in, each file is ~550 KB, and Node compiles all of it on every --help and key press.
    for (const file of ['fast-path.cjs', 'complete.cjs']) expect(statSync(new URL(`../../dist/${file}`, import.meta.url)).size).toBeLessThan(150_000);
  });
});

describe('one chunk for the CLI core (commands-share-core in tsup.config.ts)', () => {
  it('a one-shot get and create load at most 30 and 41 ES module files (without the plugin: 50 and 61)', async () => {
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: DEMO_API_KEY });
    const create = await esModulesLoadedBy(['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'], env);
    const { entry_id: id } = JSON.parse(create.stdout) as { entry_id: string };
    const get = await esModulesLoadedBy(['get', id, '--json'], env);
    expect(JSON.parse(get.stdout)).toMatchObject({ entry_id: id });
    expect(get.files.length).toBeGreaterThan(0);
    expect(get.files.length).toBeLessThanOrEqual(30);
    // create reads its flags with bulk's (the --from group) and the one address rule: three small shared chunks more than get.
    expect(create.files.length).toBeLessThanOrEqual(41);
  });
});
