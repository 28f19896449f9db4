import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { FULL_KEY, READ_ONLY_KEY } from '../helpers/seed.js';
import type { Harness, RunOpts } from './harness.js';
import { closedPortUrl, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

interface ConfigFile {
  current_profile?: string;
  profiles: Record<string, { base_url?: string; api_key?: string; output?: string; retries?: number }>;
}
function readConfigFile(dir: string): ConfigFile {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as ConfigFile;
}

/** Only the config dir and whatever env the test names: no key and no base URL from the environment. */
function bare(dir: string, env: NodeJS.ProcessEnv = {}): RunOpts {
  return { dir, env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined, ...env } };
}

async function login(dir: string, key = FULL_KEY, extra: string[] = [], env: NodeJS.ProcessEnv = { PARCELS_BASE_URL: h.sandbox.url }) {
  return h.cli(['auth', 'login', '--with-key-stdin', ...extra], { ...bare(dir, env), stdin: key });
}

describe('auth login / status / logout', () => {
  it('login --with-key-stdin with PARCELS_BASE_URL saves the profile in a 0600 config.json', async () => {
    const dir = tempConfigDir();
    const r = await login(dir, `${FULL_KEY}\n`);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ Logged in to ${h.sandbox.url} as profile "default" (key ********${FULL_KEY.slice(-4)})\n`,
    });
    const config = readConfigFile(dir);
    expect(config.profiles.default).toEqual({ base_url: h.sandbox.url, api_key: FULL_KEY });
    expect(config.current_profile).toBe('default');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);

    // the saved profile alone is enough to work
    expect(await h.cli(['couriers'], bare(dir))).toEqual({ code: 0, stdout: 'code\tname\nA-BIKE\tA bikes\nA-VAN\tA vans\n', stderr: '' });
  });

  it('auth status masks the key to its last 4 characters', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    const r = await h.cli(['auth', 'status'], bare(dir));
    expect(r).toEqual({
      code: 0,
      stdout: `profile\tdefault\nbase_url\t${h.sandbox.url}\nbase_url_from\tprofile\napi_key\t********${FULL_KEY.slice(-4)}\napi_key_from\tprofile\nlogged_in\tyes\nchecked\tyes\nscopes\tdeliveries:read deliveries:write usage:read oracle:read\n`,
      stderr: '',
    });
    expect(r.stdout).not.toContain(FULL_KEY);
    const j = json(await h.cli(['auth', 'status', '--json'], bare(dir, { PARCELS_API_KEY: READ_ONLY_KEY })));
    expect(j).toEqual({
      profile: 'default',
      base_url: h.sandbox.url,
      base_url_from: 'profile',
      api_key: `********${READ_ONLY_KEY.slice(-4)}`,
      api_key_from: 'env',
      logged_in: true,
      checked: true,
      scopes: 'deliveries:read',
    });
    const list = await h.cli(['config', 'list', '--json'], bare(dir));
    expect(json(list)).toEqual([
      { profile: 'default', active: true, base_url: h.sandbox.url, api_key: `********${FULL_KEY.slice(-4)}`, output: null, timeout: null, retries: null, bulk_matched_lines: null, sandbox: null, queue_writes: null },
    ]);
  });

  it('login with an unknown key → exit 3 and nothing saved', async () => {
    const dir = tempConfigDir();
    const r = await login(dir, 'unknown_key_0123456789');
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'Error: the API key was refused (invalid or expired); nothing was saved\nHint: the API key was refused (invalid or expired): run `parcels auth login --profile default` with a valid key\n',
    });
    expect(r.stderr).not.toContain('unknown_key_0123456789');
    expect(existsSync(join(dir, 'config.json')) ? readConfigFile(dir).profiles.default?.api_key : undefined).toBeUndefined();
  });

  it('login without a terminal and without --with-key-stdin → exit 2', async () => {
    const dir = tempConfigDir();
    const r = await h.cli(['auth', 'login'], bare(dir, { PARCELS_BASE_URL: h.sandbox.url }));
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: no terminal to prompt for the key\nHint: pipe the key in with --with-key-stdin, e.g. printf %s "$KEY" | parcels auth login --with-key-stdin\n',
    });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('login with an empty key → exit 2', async () => {
    const dir = tempConfigDir();
    expect(await login(dir, '  \n')).toEqual({ code: 2, stdout: '', stderr: 'Error: --with-key-stdin: the API key is empty\n' });
  });

  it('login without any base URL → exit 2', async () => {
    const dir = tempConfigDir();
    const r = await login(dir, FULL_KEY, [], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base-url');
  });

  it('--no-verify saves without sending anything (an unreachable base URL is fine)', async () => {
    const dir = tempConfigDir();
    const unreachable = await closedPortUrl();
    const r = await login(dir, 'never_checked_key_9876', ['--no-verify', '--base-url', unreachable], {});
    expect(r).toEqual({ code: 0, stdout: '', stderr: `✓ Saved the key for ${unreachable} as profile "default" (key ********9876), not checked: \`parcels auth status --base-url ${unreachable}\` checks it\n` });
    expect(readConfigFile(dir).profiles.default).toEqual({ base_url: unreachable, api_key: 'never_checked_key_9876' });
  });

  it('login into a named profile with --profile', async () => {
    const dir = tempConfigDir();
    const r = await login(dir, FULL_KEY, ['--profile', 'ci']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('as profile "ci"');
    expect(readConfigFile(dir).profiles.ci?.base_url).toBe(h.sandbox.url);
    expect(json(await h.cli(['auth', 'status', '--json'], bare(dir, { PARCELS_PROFILE: 'ci' }))).profile).toBe('ci');
  });

  it('auth logout removes the key', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    expect(await h.cli(['auth', 'logout'], bare(dir))).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ Removed the API key of profile "default"; kept its settings (`parcels auth logout --remove-profile` removes them too)\n',
    });
    expect(readConfigFile(dir).profiles.default).toEqual({ base_url: h.sandbox.url });
    const status = await h.cli(['auth', 'status', '--json'], bare(dir));
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({ api_key: null, logged_in: false });
    expect(await h.cli(['auth', 'logout'], bare(dir))).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Profile "default" had no saved key; kept its settings (`parcels auth logout --remove-profile` removes them too)\n',
    });
    // without a key the service refuses: exit 3
    expect((await h.cli(['couriers'], bare(dir))).code).toBe(3);
  });

  it('auth logout --remove-profile removes the profile, its settings and the default that named it', async () => {
    const dir = tempConfigDir();
    expect((await login(dir, FULL_KEY, ['--profile', 'old'])).code).toBe(0);
    expect((await h.cli(['config', 'set', 'output', 'json', '--profile', 'old'], bare(dir))).code).toBe(0);
    expect(readConfigFile(dir).current_profile).toBe('old');
    expect(await h.cli(['auth', 'logout', '--profile', 'old', '--remove-profile'], bare(dir))).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ Removed profile "old": its key and settings\n',
    });
    expect(readConfigFile(dir)).toEqual({ profiles: {} });
  });
});

describe('config', () => {
  it('config set output json: commands then print JSON by default', async () => {
    const dir = tempConfigDir();
    expect(await h.cli(['config', 'set', 'output', 'json'], { dir })).toEqual({ code: 0, stdout: '', stderr: '✓ Set output = json for profile "default"\n' });
    expect(await h.cli(['config', 'get', 'output'], { dir })).toEqual({ code: 0, stdout: 'json\n', stderr: '' });
    const r = await h.cli(['couriers'], { dir });
    expect(json(r)).toEqual({ couriers: [{ code: 'A-BIKE', name: 'A bikes' }, { code: 'A-VAN', name: 'A vans' }] });
    // a flag still wins over the profile
    expect((await h.cli(['couriers', '--output', 'table'], { dir })).stdout).toBe('code\tname\nA-BIKE\tA bikes\nA-VAN\tA vans\n');
    // and PARCELS_OUTPUT over the profile
    expect((await h.cli(['couriers'], { dir, env: { PARCELS_OUTPUT: 'ndjson' } })).stdout).toBe(
      '{"code":"A-BIKE","name":"A bikes"}\n{"code":"A-VAN","name":"A vans"}\n',
    );
  });

  it('config set retries 11 → exit 2; 10 is fine', async () => {
    const dir = tempConfigDir();
    expect(await h.cli(['config', 'set', 'retries', '11'], { dir })).toEqual({ code: 2, stdout: '', stderr: 'Error: retries must be an integer from 0 to 10 (config set, got "11")\n' });
    expect((await h.cli(['config', 'set', 'retries', '10'], { dir })).code).toBe(0);
    expect(await h.cli(['config', 'get', 'retries'], { dir })).toEqual({ code: 0, stdout: '10\n', stderr: '' });
  });

  it('config set timeout rejects non-positive values; output rejects unknown formats', async () => {
    const dir = tempConfigDir();
    expect((await h.cli(['config', 'set', 'timeout', '0'], { dir })).code).toBe(2);
    expect((await h.cli(['config', 'set', 'timeout', '2.5'], { dir })).code).toBe(0);
    expect((await h.cli(['config', 'get', 'timeout'], { dir })).stdout).toBe('2.5\n');
    const xml = await h.cli(['config', 'set', 'output', 'xml'], { dir });
    expect(xml.code).toBe(2);
    expect(xml.stderr).toContain('xml');
  });

  it('config get api_key → exit 2 pointing at auth login', async () => {
    expect(await h.cli(['config', 'get', 'api_key'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: KEY: the API key is not a config value\nHint: use `parcels auth login` (it reads the key from a prompt or stdin, never the command line)\n',
    });
    expect((await h.cli(['config', 'set', 'api_key', 'x'])).code).toBe(2);
    expect((await h.cli(['config', 'get', 'colour'])).code).toBe(2);
  });

  it('precedence for the base URL: flag > env > profile', async () => {
    const dir = tempConfigDir();
    expect((await login(dir, FULL_KEY, ['--no-verify', '--insecure', '--base-url', 'http://profile.example'], {})).code).toBe(0);
    // Another host than the profile's has no key (the key is bound to its host): exit 3, the record all the same.
    const status = async (argv: string[], env: NodeJS.ProcessEnv) => JSON.parse((await h.cli(['auth', 'status', '--offline', '--json', ...argv], bare(dir, env))).stdout) as unknown;
    expect(await status([], {})).toMatchObject({ base_url: 'http://profile.example', base_url_from: 'profile' });
    expect(await status([], { PARCELS_BASE_URL: 'http://env.example' })).toMatchObject({ base_url: 'http://env.example', base_url_from: 'env' });
    expect(await status(['--base-url', 'http://flag.example'], { PARCELS_BASE_URL: 'http://env.example' })).toMatchObject({
      base_url: 'http://flag.example',
      base_url_from: 'flag',
    });
    // and the flag is what requests actually use (with an explicit key: the profile's is bound to its own host)
    const r = await h.cli(['couriers', '--base-url', h.sandbox.url], bare(dir, { PARCELS_BASE_URL: await closedPortUrl(), PARCELS_API_KEY: FULL_KEY }));
    expect(r.code).toBe(0);
  });

  it('precedence for retries: flag > env > profile', async () => {
    const dir = tempConfigDir();
    expect((await h.cli(['config', 'set', 'retries', '2'], { dir })).code).toBe(0);
    expect((await h.cli(['config', 'get', 'retries'], { dir })).stdout).toBe('2\n');
    expect((await h.cli(['config', 'get', 'retries'], { dir, env: { PARCELS_RETRIES: '5' } })).stdout).toBe('5\n');
    expect((await h.cli(['config', 'get', 'retries', '--retries', '1'], { dir, env: { PARCELS_RETRIES: '5' } })).stdout).toBe('1\n');
  });
});
