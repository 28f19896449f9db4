/**
 * The README's smoke job ("## CI: smoke checks") run as written by `sh`, with the built binary as
 * `parcels` on PATH, against `parcels sandbox serve`: twice with the same RUN_ID, the second run
 * replaying the first. Run `npm run build` first (`npm test` does).
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox, Spawned } from '../helpers/spawn.js';
import { binaryEnv, serveSandbox } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const seen: Spawned[] = [];
let sandbox: ServedSandbox;

beforeAll(async () => {
  sandbox = await serveSandbox(TEST_SEED);
});
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n') + sandbox.stderr();
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

/** The first `sh` block of the README's "## CI: smoke checks" section. */
function recipe(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## CI: smoke checks\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README has no sh block under "## CI: smoke checks"');
  return block;
}

/** A folder holding the script and a `parcels` on PATH that runs the built binary. */
function workspace(): { dir: string; script: string } {
  const dir = tempConfigDir();
  const shim = join(dir, 'parcels');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  const script = join(dir, 'smoke.sh');
  writeFileSync(script, recipe());
  return { dir, script };
}

function sh(script: string, env: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout, stderr };
      seen.push(result);
      resolve(result);
    });
  });
}

it('runs as written: doctor, a parcel created, its event, a --jq check; the same run again replays the parcel', async () => {
  const { dir, script } = workspace();
  const env = binaryEnv({
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    PARCELS_BASE_URL: sandbox.url,
    PARCELS_API_KEY: FULL_KEY,
    SMOKE_COURIER: 'A-BIKE',
    RUN_ID: '4242',
  });
  const steady = (text: string): string =>
    text
      .replaceAll(sandbox.url, 'URL')
      .replace(/answered in \d+ ms/, 'answered in N ms')
      .replace(/(none at )\S+(\/config\.json)/, '$1DIR$2');
  const doctor = [
    '✓ settings                profile "default" (default), base URL URL (PARCELS_BASE_URL), key from PARCELS_API_KEY',
    '✓ host                    URL answered in N ms',
    '✓ key                     accepted (from PARCELS_API_KEY)',
    '✓ scope deliveries:read   held',
    '✓ scope deliveries:write  held',
    '✓ scope usage:read        held',
    '✓ scope oracle:read       held',
    '✓ clock                   in step with the service',
    '✓ config file             none at DIR/config.json (settings come from flags and the environment)',
    '✓ outbox                  empty',
    '✓ bulk batches            none unfinished',
  ];

  const first = await sh(script, env);
  expect(first.stderr).toBe('✓ All checks passed\n');
  expect(first.code).toBe(0);
  const id = /^smoke: parcel (\S+) created$/m.exec(first.stdout)?.[1] as string;
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(steady(first.stdout)).toBe([...doctor, `smoke: parcel ${id} created`, 'created', 'true', ''].join('\n'));

  const again = await sh(script, env);
  expect([again.code, again.stderr]).toEqual([0, '✓ All checks passed\n']);
  expect(steady(again.stdout)).toBe([...doctor, `smoke: parcel ${id} replayed`, 'created', 'true', ''].join('\n'));
});
