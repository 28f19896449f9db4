/**
 * End-to-end: the built `parcels` binary, spawned, against `parcels sandbox serve` (also spawned) on
 * a random port, over real HTTP, with a real config directory in a temp folder. Run `npm run build`
 * first (`npm test` does).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli.js';
import { ALL_KEYS, FULL_KEY, READ_ONLY_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox, Spawned } from '../helpers/spawn.js';
import { binaryEnv, parcels as spawnParcels, serveSandbox } from '../helpers/spawn.js';
import { closedPortUrl } from '../commands/harness.js';
import { runCli } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const seen: Spawned[] = [];

async function parcels(args: string[], opts: { env: NodeJS.ProcessEnv; input?: string }): Promise<Spawned> {
  const result = await spawnParcels(args, opts);
  seen.push(result);
  return result;
}

const CREATE = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];

let sandbox: ServedSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await serveSandbox(TEST_SEED);
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
});

afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  // The API keys never appear in anything the binary printed, in any test of this file.
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n') + sandbox.stderr();
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

describe('sandbox serve', () => {
  it('prints its base URL alone on stdout and what it serves on stderr', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect.poll(() => sandbox.stderr()).toContain(`Sandbox on ${sandbox.url}`);
  });
});

describe('library entry', () => {
  it("`import { startSandbox } from 'parcels/sandbox'` starts and stops a sandbox", async () => {
    const script =
      "const { startSandbox, DEMO_API_KEY } = await import('parcels/sandbox');" +
      'const s = await startSandbox({ port: 0 });' +
      "const r = await fetch(s.url + '/account/v1/couriers', { headers: { authorization: 'Bearer ' + DEMO_API_KEY } });" +
      'console.log(r.status, JSON.stringify(await r.json()));' +
      'await s.close();';
    const result = await new Promise<Spawned>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      '200 {"data":{"couriers":[{"code":"DEMO-BIKE","name":"Demo bikes"},{"code":"DEMO-VAN","name":"Demo vans"}]}}\n',
    );
  });
});

describe('every exit code', () => {
  it('0: create prints the new entry_id with --quiet, and get reads it back', async () => {
    const created = await parcels([...CREATE, '--quiet'], { env });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = created.stdout.trim();
    expect(id).toMatch(UUID);
    expect(created.stdout).toBe(`${id}\n`);

    const got = await parcels(['get', id, '--json'], { env });
    expect(got.code).toBe(0);
    expect(got.stderr).toBe('');
    expect(JSON.parse(got.stdout)).toMatchObject({ entry_id: id, courier: 'A-BIKE', postal_code: '1234AB', number: '10' });
  });

  it('1: an answer without data.entry_id where one is required', async () => {
    const odd = createServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"data":{}}');
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    const result = await parcels([...CREATE, '--quiet'], { env: { ...env, PARCELS_BASE_URL: url } });
    odd.close();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('data.entry_id');
  });

  it('2: invalid input is rejected before anything is sent', async () => {
    const before = await parcels(['list', '--json', '--limit', '100'], { env });
    const result = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--number', '10'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: --postal-code is required\n');
    const after = await parcels(['list', '--json', '--limit', '100'], { env });
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
  });

  it('3: a key without the write scope gets 403 naming the scope', async () => {
    const result = await parcels(CREATE, { env: { ...env, PARCELS_API_KEY: READ_ONLY_KEY } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('deliveries:write');
  });

  it('3: an unknown key gets 401 and the login hint', async () => {
    const result = await parcels(['list'], { env: { ...env, PARCELS_API_KEY: 'not_a_real_key_123456' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the key in PARCELS_API_KEY was refused');
    expect(result.stderr).not.toContain('not_a_real_key_123456');
  });

  it('4: an unknown parcel', async () => {
    const result = await parcels(['get', '00000000-0000-4000-8000-000000000000', '--json'], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr) as { error: Record<string, unknown> };
    expect(error.error).toMatchObject({ status: 404, exit_code: 4 });
  });

  it('5: a stale ETag gives 412 with a clear message', async () => {
    const id = (await parcels([...CREATE, '--quiet'], { env })).stdout.trim();
    expect((await parcels(['get', id, '--json'], { env })).code).toBe(0);
    // Someone else changes the parcel: the cached ETag is now stale.
    const other = { ...env, PARCELS_CONFIG_DIR: binaryEnv().PARCELS_CONFIG_DIR };
    expect((await parcels(['patch', id, '--weight', '900', '--refresh', '--json'], { env: other })).code).toBe(0);

    const result = await parcels(['patch', id, '--weight', '1200'], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the parcel changed since you read it');
    expect(result.stderr).toContain('parcels get');
    const got = JSON.parse((await parcels(['get', id, '--json'], { env })).stdout) as { parcel_weight: number };
    expect(got.parcel_weight).toBe(900);
  });

  it('6: the service rejects an unregistered courier', async () => {
    const result = await parcels(['create', '--courier', 'NOPE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'], { env });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 422, exit_code: 6 } });
  });

  it('7 and 0: a 429 ends the command with 7 when not retried, and is waited out when it is', async () => {
    // 2 requests per 6 s window: 5 requests sent within 6 s span at most two windows, so at least 3
    // share one and one is refused (6 s, not less, so a slow, loaded machine still gets there).
    const limited = await serveSandbox({ ...TEST_SEED, rate_limit: { requests: 2, window_s: 6 } });
    const limitedEnv = { ...env, PARCELS_BASE_URL: limited.url };
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await parcels(['list', '--json', '--retries', '0'], { env: limitedEnv })).code);
    expect(codes).toContain(7);
    expect(codes.filter((c) => c !== 0 && c !== 7)).toEqual([]);

    // With retries, a 429 is waited out (Retry-After) and the command succeeds.
    let waited: Spawned | undefined;
    for (let i = 0; i < 6 && waited === undefined; i++) {
      const result = await parcels(['list', '--json', '--verbose'], { env: limitedEnv });
      expect(result.code).toBe(0);
      if (result.stderr.includes('< 429')) waited = result;
    }
    await limited.stop();
    expect(waited?.stderr).toMatch(/retrying in \d+ ms after 429/);
  }, 60_000);

  it('8: an unavailable service after retries', async () => {
    const failing = await serveSandbox(TEST_SEED, ['--fail-rate', '1']);
    const result = await parcels(['list', '--json', '--retries', '1'], { env: { ...env, PARCELS_BASE_URL: failing.url } });
    await failing.stop();
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { exit_code: 8 } });
  });

  it('8: a refused connection', async () => {
    const result = await parcels(['list', '--retries', '0'], { env: { ...env, PARCELS_BASE_URL: await closedPortUrl() } });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('connection');
  });
});

describe('profiles on disk', () => {
  it('auth login from stdin saves a 0600 profile that later commands use; status masks; logout removes the key', async () => {
    const home = binaryEnv({ PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined });
    const login = await parcels(['auth', 'login', '--profile', 'ops', '--base-url', sandbox.url, '--with-key-stdin'], { env: home, input: `${FULL_KEY}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('');
    expect(login.stderr).toBe(`✓ Logged in to ${sandbox.url} as profile "ops" (key ********${FULL_KEY.slice(-4)})\n`);
    const file = join(home.PARCELS_CONFIG_DIR as string, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const listed = await parcels(['list', '--json', '--profile', 'ops'], { env: home });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveProperty('next_cursor');

    const status = await parcels(['auth', 'status', '--profile', 'ops', '--json'], { env: home });
    expect(JSON.parse(status.stdout)).toEqual({
      profile: 'ops',
      base_url: sandbox.url,
      base_url_from: 'profile',
      api_key: `********${FULL_KEY.slice(-4)}`,
      api_key_from: 'profile',
      logged_in: true,
      checked: true,
      scopes: 'deliveries:read deliveries:write usage:read oracle:read',
    });

    expect((await parcels(['auth', 'logout', '--profile', 'ops'], { env: home })).code).toBe(0);
    const after = await parcels(['list', '--profile', 'ops'], { env: home });
    expect(after).toEqual({
      code: 3,
      stdout: '',
      stderr: 'Error: no API key for profile "ops"\nHint: run `parcels auth login --profile ops`, or set PARCELS_API_KEY\n',
    });
  });
});

describe('retries are safe', () => {
  it('a create retried after dropped connections makes exactly one parcel', async () => {
    const dropping = await serveSandbox(TEST_SEED, ['--drop-rate', '0.5', '--fault-seed', '3']);
    const dropEnv = { ...env, PARCELS_BASE_URL: dropping.url };
    const created = await parcels([...CREATE, '--json', '--verbose', '--retries', '8'], { env: dropEnv });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('retrying');
    const id = (JSON.parse(created.stdout) as { entry_id: string }).entry_id;
    const listed = await parcels(['list', '--all', '--output', 'ndjson', '--retries', '8'], { env: dropEnv });
    await dropping.stop();
    expect(listed.code).toBe(0);
    const ids = listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { entry_id: string }).entry_id);
    expect(ids).toEqual([id]);
  });
});

describe('scripts and people', () => {
  it('list --all streams NDJSON, one parcel per line, across pages', async () => {
    const fresh = await serveSandbox(TEST_SEED);
    const freshEnv = { ...env, PARCELS_BASE_URL: fresh.url };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await parcels([...CREATE, '--quiet'], { env: freshEnv })).stdout.trim());
    const listed = await parcels(['list', '--all', '--limit', '2', '--output', 'ndjson', '--fields', 'entry_id'], { env: freshEnv });
    const asArray = await parcels(['list', '--all', '--limit', '2', '--json', '--fields', 'entry_id'], { env: freshEnv });
    await fresh.stop();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(ids.map((id) => `{"entry_id":"${id}"}\n`).join(''));
    expect(JSON.parse(asArray.stdout)).toEqual(ids.map((id) => ({ entry_id: id })));
  });

  it('--dry-run prints the request and a curl command, sends nothing and shows no key', async () => {
    const result = await parcels([...CREATE, '--dry-run', '--idempotency-key', 'dry-run-key-0001'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`POST ${sandbox.url}/deliveries/v1/parcels`);
    expect(result.stdout).toContain('Idempotency-Key: dry-run-key-0001');
    expect(result.stdout).toContain('curl');
    expect(result.stdout).toContain('$PARCELS_API_KEY');
    expect(result.stdout).not.toContain(FULL_KEY);
  });

  it('every command has --help with examples (in-process; one spawned check that the binary prints the same)', async () => {
    for (const def of COMMANDS) {
      const result = await runCli([...def.path, '--help'], { env });
      expect(result.code, def.path.join(' ')).toBe(0);
      expect(result.stdout, def.path.join(' ')).toContain('Examples:');
    }
    const top = await runCli(['--help'], { env });
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Examples:');
    const spawned = await parcels(['create', '--help'], { env });
    expect(spawned).toEqual({ ...(await runCli(['create', '--help'], { env })), code: 0 });
  });

  it('works against any server that follows the spec, whatever its field names', async () => {
    const other = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.startsWith('/deliveries/v1/parcels')) {
        res.end(JSON.stringify({ data: { results: [{ entry_id: 'p-1', state: 'moving', owner: { name: 'x' } }], next_cursor: '' } }));
      } else {
        res.end(JSON.stringify({ data: {} }));
      }
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const table = await parcels(['list'], { env: { ...env, PARCELS_BASE_URL: url } });
    const ndjson = await parcels(['list', '--all', '--output', 'ndjson'], { env: { ...env, PARCELS_BASE_URL: url } });
    other.close();
    expect(table.code).toBe(0);
    expect(table.stdout).toBe('entry_id\tstate\towner\np-1\tmoving\t{"name":"x"}\n');
    expect(ndjson.stdout).toBe('{"entry_id":"p-1","state":"moving","owner":{"name":"x"}}\n');
  });
});

describe('signals', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while a request is under way → exit ${code}, nothing on stdout`, async () => {
      // A server that never answers; it tells the test when the request has arrived.
      let arrived: () => void = () => undefined;
      const requested = new Promise<void>((resolve) => (arrived = resolve));
      const silent = createServer(() => arrived());
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const child = spawn(process.execPath, [join(ROOT, 'bin/parcels.js'), 'list', '--all'], {
        env: { ...env, PARCELS_BASE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await requested;
      child.kill(signal);
      const result = { code: await exited, stdout, stderr };
      silent.closeAllConnections();
      silent.close();
      seen.push({ code: result.code ?? -1, stdout, stderr });
      expect(result).toEqual({ code, stdout: '', stderr: '' });
    });
  }
});
