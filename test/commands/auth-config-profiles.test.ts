/** Issue 9, "profiles and the sandbox": switching profiles, unsetting settings, --profile checks, --sandbox's data. */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { FULL_KEY } from '../helpers/seed.js';
import { hintedCommands, runAtTerminal } from '../helpers/terminal.js';
import type { Harness, RunOpts } from './harness.js';
import { expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** Only the config dir: no key and no base URL from the environment. */
function bare(dir: string): RunOpts {
  return { dir, env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined } };
}

async function login(dir: string, profile: string): Promise<void> {
  const r = await h.cli(['auth', 'login', '--profile', profile, '--base-url', h.sandbox.url, '--with-key-stdin', '--no-verify'], { ...bare(dir), stdin: FULL_KEY });
  expect(r.code, r.stderr).toBe(0);
}

/** Runs a printed `auth login` at a terminal where the user types FULL_KEY at the hidden prompt. */
async function atTerminal(argv: string[], dir: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const merged = h.env({ PARCELS_CONFIG_DIR: dir, PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined, ...env });
  return h.record(await runAtTerminal(argv, { env: merged, typed: `${FULL_KEY}\r` }));
}

function currentProfile(dir: string): string | undefined {
  return (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { current_profile?: string }).current_profile;
}

describe('auth switch / config use', () => {
  it('sets the default profile, which later commands use without --profile', async () => {
    const dir = tempConfigDir();
    await login(dir, 'prod');
    await login(dir, 'ci');
    expect(await h.cli(['auth', 'switch', 'prod'], bare(dir))).toEqual({ code: 0, stdout: '', stderr: '✓ Default profile is now "prod"\n' });
    expect(currentProfile(dir)).toBe('prod');
    expect(json(await h.cli(['auth', 'status', '--json'], bare(dir)))).toMatchObject({ profile: 'prod' });
    expect(await h.cli(['config', 'use', 'ci'], bare(dir))).toEqual({ code: 0, stdout: '', stderr: '✓ Default profile is now "ci"\n' });
    expect(currentProfile(dir)).toBe('ci');
  });

  it('a profile that does not exist: exit 2 listing the profiles, nothing changed', async () => {
    const dir = tempConfigDir();
    await login(dir, 'prod');
    const before = currentProfile(dir);
    const refused = await h.cli(['auth', 'switch', 'prdo'], bare(dir));
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: PROFILE: profile "prdo" does not exist (profiles: prod)\nHint: create it with `parcels auth login --profile prdo`\n',
    });
    expect(currentProfile(dir)).toBe(before);
    const created = await atTerminal(hintedCommands(refused.stderr)[0] as string[], dir, { PARCELS_BASE_URL: h.sandbox.url });
    expect(created.code, created.stderr).toBe(0);
    expect((await h.cli(['auth', 'switch', 'prdo'], bare(dir))).code).toBe(0);
  });
});

describe('config unset', () => {
  it('removes one setting of the profile; the default applies again', async () => {
    const dir = tempConfigDir();
    await login(dir, 'default');
    expect((await h.cli(['config', 'set', 'timeout', '12'], bare(dir))).code).toBe(0);
    expect((await h.cli(['config', 'get', 'timeout'], bare(dir))).stdout).toBe('12\n');
    expect(await h.cli(['config', 'unset', 'timeout'], bare(dir))).toEqual({ code: 0, stdout: '', stderr: '✓ Removed timeout from profile "default"\n' });
    expect((await h.cli(['config', 'get', 'timeout'], bare(dir))).stdout).toBe('30\n');
    expect(await h.cli(['config', 'unset', 'timeout'], bare(dir))).toEqual({ code: 0, stdout: '', stderr: 'Profile "default" had no timeout set\n' });
    expect(await h.cli(['config', 'unset', 'colour'], bare(dir))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: KEY must be one of output, timeout, retries, base_url, bulk_matched_lines, sandbox, queue_writes (got "colour")\n',
    });
  });
});

describe('--profile naming a profile that does not exist', () => {
  it('is an error for every command but auth login, listing the profiles; the hint creates it', async () => {
    const dir = tempConfigDir();
    await login(dir, 'prod');
    const expected = {
      code: 2,
      stdout: '',
      stderr: `Error: --profile: profile "staging" does not exist (profiles: prod)\nHint: create it with \`parcels auth login --profile staging --base-url ${h.sandbox.url}\`\n`,
    };
    for (const argv of [['list'], ['config', 'set', 'output', 'json'], ['auth', 'status'], ['auth', 'logout']]) {
      expect(await h.cli([...argv, '--profile', 'staging', '--base-url', h.sandbox.url], bare(dir))).toEqual(expected);
    }
    const [create] = hintedCommands(expected.stderr);
    const created = await atTerminal(create as string[], dir);
    expect(created.code, created.stderr).toBe(0);
    expect((await h.cli(['list', '--profile', 'staging', '--json'], bare(dir))).code).toBe(0);
  });

  it('PARCELS_PROFILE is checked the same way', async () => {
    const dir = tempConfigDir();
    const r = await h.cli(['couriers'], { dir, env: { PARCELS_PROFILE: 'nope' } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: PARCELS_PROFILE: profile "nope" does not exist (no profiles are saved yet)\nHint: create it with `parcels auth login --profile nope`\n',
    });
    // Run where the user ran it: PARCELS_BASE_URL (from the harness) names the service.
    const created = await atTerminal(hintedCommands(r.stderr)[0] as string[], dir, { PARCELS_PROFILE: 'nope', PARCELS_BASE_URL: h.sandbox.url });
    expect(created.code, created.stderr).toBe(0);
    expect((await h.cli(['couriers'], { dir, env: { PARCELS_PROFILE: 'nope', PARCELS_API_KEY: undefined } })).code).toBe(0);
  });
});

describe('--sandbox data', () => {
  const sandboxOpts = (dir: string): RunOpts => bare(dir);

  it('--dry-run --sandbox: the request, and instead of a curl to a port closed when the command ends, a word on why; --json has no curl', async () => {
    const dir = tempConfigDir();
    const argv = ['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--dry-run'];
    const r = await h.cli(argv, sandboxOpts(dir));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/deliveries\/v1\/parcels\n/);
    expect(r.stdout).not.toContain('curl -sS');
    expect(r.stdout.endsWith('\n# no curl command: the --sandbox this command started stops with it; `parcels sandbox serve` runs one that stays, for --base-url\n')).toBe(true);
    const json = await h.cli([...argv, '--json'], sandboxOpts(dir));
    expect(json.code, json.stderr).toBe(0);
    const requests = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(requests).toHaveLength(1);
    expect(Object.keys(requests[0] ?? {})).toEqual(['method', 'url', 'headers', 'body']);
    // Nothing was created.
    expect(JSON.parse((await h.cli(['--sandbox', 'list', '--json'], sandboxOpts(dir))).stdout)).toMatchObject({ parcels: [] });
  });

  it('says where its data lives on first use only; reset empties it (asks on a terminal, needs --yes off one)', async () => {
    const dir = tempConfigDir();
    const db = join(dir, 'sandbox.db');
    const notice = `Using the local sandbox; its data is kept in ${db} (empty it with \`parcels sandbox reset\`)\n`;
    const first = await h.cli(['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'], sandboxOpts(dir));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const second = await h.cli(['--sandbox', 'couriers'], sandboxOpts(dir));
    expect(second.stderr).not.toContain('Using the local sandbox');

    const refused = await h.cli(['sandbox', 'reset'], sandboxOpts(dir));
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --yes: no terminal to ask for confirmation\nHint: add --yes to reset without asking: `parcels sandbox reset --yes`\n',
    });
    const declined = h.record(await runAtTerminal(['sandbox', 'reset'], { env: h.env({ PARCELS_CONFIG_DIR: dir }), typed: 'n\n' }));
    // Saying no is an answer, not an error: no `Error:`, exit 0, nothing deleted.
    expect(declined.code).toBe(0);
    expect(declined.stderr).toBe(`Delete every parcel, event and attempt of the --sandbox database ${db}? [y/N] Kept the sandbox; nothing was deleted (${db})\n`);
    expect(existsSync(db)).toBe(true);
    expect(statSync(db).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(db)).mode & 0o777).toBe(0o700);

    const [reset] = hintedCommands(refused.stderr);
    expect(await h.cli(reset as string[], sandboxOpts(dir))).toEqual({ code: 0, stdout: '', stderr: `✓ Emptied the sandbox (${db})\n` });
    expect(existsSync(db)).toBe(false);
    const after = await h.cli(['--sandbox', 'list'], sandboxOpts(dir));
    expect(after).toEqual({ code: 0, stdout: '', stderr: `${notice}No parcels found.\n` });

    const confirmed = h.record(await runAtTerminal(['sandbox', 'reset'], { env: h.env({ PARCELS_CONFIG_DIR: dir }), typed: 'y\n' }));
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(existsSync(db)).toBe(false);
  });

  it('its code names are cached for the sandbox, not its port: one cache, one reference request over runs', async () => {
    const dir = tempConfigDir();
    for (let i = 0; i < 3; i++) expect((await h.cli(['--sandbox', 'list'], sandboxOpts(dir))).code).toBe(0);
    expect(readdirSync(join(dir, 'cache')).filter((name) => name.startsWith('sandbox-'))).toHaveLength(1);
    const usage = json(await h.cli(['--sandbox', 'usage', 'requests', '--json'], sandboxOpts(dir))) as { requests: { path: string }[] };
    expect(usage.requests.filter((r) => r.path === '/deliveries/v1/reference')).toHaveLength(1);
  });
});
