/**
 * Issue 33's account commands on the built CLI as a script sees them (stdout, stderr and the exit
 * code apart): `auth login --no-verify` says the key was saved, not checked; `auth status --offline`
 * says what it did not check; `auth logout` says whether it kept the profile, and `--remove-profile`
 * removes it from config.json. None of them asks the service: the base URL is a server that records
 * every request (and would refuse the key), and it records none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHostileServer } from '../helpers/hostile-server.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { replayTestHints } from '../helpers/spawned-hints.js';

const KEY = 'never_checked_key_9876';
let service: HostileServer;

beforeAll(async () => {
  service = await startHostileServer(() => ({ status: 401, body: { error: { code: 'unauthorized', message: 'invalid API key' } } }));
});
afterAll(() => service.close());
// The hints a test printed are run after it (spawned-hints.ts): each test counts only its own requests.
beforeEach(() => {
  service.seen.length = 0;
});

/** The saved config file (profiles, current_profile) of a config directory. */
function configFile(env: NodeJS.ProcessEnv): unknown {
  return JSON.parse(readFileSync(join(env.PARCELS_CONFIG_DIR ?? '', 'config.json'), 'utf8')) as unknown;
}

/**
 * A fresh config directory with profile "ci" saved by `auth login --no-verify`, the key given on
 * stdin. The login's hint (`auth status`) is run now, while the profile it names exists; the
 * requests it sends are not the test's.
 */
async function loggedIn(): Promise<NodeJS.ProcessEnv> {
  const env = binaryEnv();
  const login = await parcels(['auth', 'login', '--profile', 'ci', '--base-url', service.url, '--with-key-stdin', '--no-verify'], { env, input: KEY });
  expect(login.code, login.stderr).toBe(0);
  await replayTestHints();
  service.seen.length = 0;
  return env;
}

describe('accounts on the built CLI (issue 33)', () => {
  it('auth login --no-verify says "saved, not checked" (never "Logged in"), names the command that checks, and sends nothing', async () => {
    const env = binaryEnv();
    const r = await parcels(['auth', 'login', '--profile', 'ci', '--base-url', service.url, '--with-key-stdin', '--no-verify'], { env, input: KEY });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ Saved the key for ${service.url} as profile "ci" (key ********9876), not checked: \`parcels auth status --profile ci --base-url ${service.url}\` checks it\n`,
    });
    expect(configFile(env)).toEqual({ profiles: { ci: { base_url: service.url, api_key: KEY } }, current_profile: 'ci' });
    expect(service.seen).toEqual([]);
  });

  it('auth status --offline shows the local record, and says on stderr what it did not check; --json says checked: false', async () => {
    const env = await loggedIn();
    expect(await parcels(['auth', 'status', '--offline'], { env })).toEqual({
      code: 0,
      stdout: `profile\tci\nbase_url\t${service.url}\nbase_url_from\tprofile\napi_key\t********9876\napi_key_from\tprofile\nlogged_in\tyes\nchecked\tno\nscopes\t\n`,
      stderr: 'Not checked (--offline): whether the service accepts the key, and which scopes it holds\n',
    });
    const json = await parcels(['auth', 'status', '--offline', '--json'], { env });
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'ci',
      base_url: service.url,
      base_url_from: 'profile',
      api_key: '********9876',
      api_key_from: 'profile',
      logged_in: true,
      checked: false,
      scopes: null,
    });
    expect(service.seen).toEqual([]);
  });

  it('auth logout removes the key and says it kept the profile, naming the command that removes it', async () => {
    const env = await loggedIn();
    expect(await parcels(['auth', 'logout', '--profile', 'ci'], { env })).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ Removed the API key of profile "ci"; kept its settings (`parcels auth logout --profile ci --remove-profile` removes them too)\n',
    });
    expect(configFile(env)).toEqual({ profiles: { ci: { base_url: service.url } }, current_profile: 'ci' });
    expect(service.seen).toEqual([]);
  });

  it('auth logout --remove-profile removes the profile and the default that named it from config.json', async () => {
    const env = await loggedIn();
    expect(await parcels(['auth', 'logout', '--profile', 'ci', '--remove-profile'], { env })).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ Removed profile "ci": its key and settings\n',
    });
    expect(configFile(env)).toEqual({ profiles: {} });
    expect(await parcels(['auth', 'logout', '--profile', 'ci', '--remove-profile'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --profile: profile "ci" does not exist (no profiles are saved yet)\nHint: create it with `parcels auth login --profile ci`\n',
    });
    expect(service.seen).toEqual([]);
  });
});
