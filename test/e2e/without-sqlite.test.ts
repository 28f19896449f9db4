/**
 * The CLI on a machine where better-sqlite3 (an optional dependency) did not install: a copy of the
 * built package (bin/, dist/, package.json) in a temp folder with no node_modules anywhere above it,
 * so the import really fails. Everything but the sandbox works; `--sandbox` and `sandbox serve`
 * exit 9 naming what to install. A second copy has better-sqlite3 without its compiled addon (an
 * install with scripts turned off), which fails later, when the addon loads. .ci/run runs both
 * printed commands for real in a packed global install.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { installCommand, rebuildCommand } from '../../src/sandbox-loader.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { Spawned } from '../helpers/spawn.js';
import { binaryEnv } from '../helpers/spawn.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A copy of the built package; `node_modules` lists the packages (from this checkout) it gets beside it. */
function packageCopy(nodeModules: Record<string, (from: string, to: string) => void> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'parcels-nosqlite-')), 'parcels');
  for (const entry of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  for (const [name, copy] of Object.entries(nodeModules)) copy(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  return dir;
}

function run(packageDir: string, args: string[], env: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageDir, 'bin', 'parcels.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const copyAll = (from: string, to: string) => cpSync(from, to, { recursive: true });

let sandbox: RunningSandbox;
let bare: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, port: 0 });
  bare = packageCopy();
});

afterAll(async () => {
  await sandbox.close();
});

describe('without better-sqlite3', () => {
  it('the import really fails in the copy: no node_modules beside it or above it', () => {
    let dir = bare;
    while (dirname(dir) !== dir) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
      dir = dirname(dir);
    }
  });

  it('--version, --help and commands against a service work', async () => {
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    expect(await run(bare, ['--version'], env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    const couriers = await run(bare, ['couriers', '--json'], env);
    expect(couriers).toEqual({ code: 0, stdout: expect.stringContaining('"A-BIKE"'), stderr: '' });
  });

  it('--sandbox and sandbox serve exit 9 and name the command that installs it', async () => {
    const expected = {
      code: 9,
      stdout: '',
      stderr:
        'Error: the sandbox needs better-sqlite3, an optional dependency that is not installed\n' +
        `Hint: install it (a prebuilt binary for this platform, or a C++ toolchain to build one): \`${installCommand(bare)}\`\n`,
    };
    expect(await run(bare, ['--sandbox', 'list'], binaryEnv())).toEqual(expected);
    expect(await run(bare, ['sandbox', 'serve', '--port', '0', '--db', ':memory:'], binaryEnv())).toEqual(expected);
  });

  it('with --json the error is one JSON line with exit_code 9', async () => {
    const result = await run(bare, ['--sandbox', 'couriers', '--json'], binaryEnv());
    expect(result.code).toBe(9);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'sandbox_unavailable', exit_code: 9 } });
  });

  it('installed without its compiled addon (scripts turned off): exit 9 when the addon fails to load', async () => {
    const withoutAddon = packageCopy({
      'better-sqlite3': (from, to) => {
        mkdirSync(to, { recursive: true });
        for (const entry of ['package.json', 'lib']) cpSync(join(from, entry), join(to, entry), { recursive: true });
      },
      bindings: copyAll,
      'file-uri-to-path': copyAll,
    });
    const result = await run(withoutAddon, ['--sandbox', 'list'], binaryEnv());
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: the sandbox needs better-sqlite3, an optional dependency that is installed but its native addon does not load (Could not locate the bindings file. Tried:)\n' +
        `Hint: build it again (a prebuilt binary for this platform, or a C++ toolchain to build one): \`${rebuildCommand(withoutAddon)}\`\n`,
    );
  });
});
