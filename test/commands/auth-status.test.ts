/** `parcels auth status`: checks the key with the service by default; --offline answers locally. */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { captureIO } from '../helpers/io.js';
import { EXPIRED_KEY, FULL_KEY, READ_ONLY_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { closedPortUrl, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

const record = (url: string, key: string, extra = ''): string =>
  `profile\tdefault\nbase_url\t${url}\nbase_url_from\tenv\napi_key\t********${key.slice(-4)}\napi_key_from\tenv\n${extra}`;

describe('auth status', () => {
  it('an accepted key: the local record, exit 0', async () => {
    expect(await h.cli(['auth', 'status'], { env: { PARCELS_API_KEY: READ_ONLY_KEY } })).toEqual({
      code: 0,
      stdout: record(h.sandbox.url, READ_ONLY_KEY, 'logged_in\tyes\nchecked\tyes\nscopes\tdeliveries:read\n'),
      stderr: '',
    });
  });

  it('a refused (expired) key: logged_in no with the problem, exit 3 and a hint for where the key came from', async () => {
    const r = await h.cli(['auth', 'status'], { env: { PARCELS_API_KEY: EXPIRED_KEY } });
    expect(r).toEqual({
      code: 3,
      stdout: record(h.sandbox.url, EXPIRED_KEY, 'logged_in\tno\nchecked\tyes\nscopes\t\nproblem\tthe API key was refused (invalid or expired): the API key has expired\n'),
      stderr:
        "Error: the API key was refused (invalid or expired): the API key has expired\nHint: PARCELS_API_KEY holds the refused key: set it to a valid key, or unset it to use the profile's key\n",
    });
    const j = await h.cli(['auth', 'status', '--json'], { env: { PARCELS_API_KEY: EXPIRED_KEY } });
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout)).toEqual({
      profile: 'default',
      base_url: h.sandbox.url,
      base_url_from: 'env',
      api_key: `********${EXPIRED_KEY.slice(-4)}`,
      api_key_from: 'env',
      logged_in: false,
      checked: true,
      scopes: null,
      problem: 'the API key was refused (invalid or expired): the API key has expired',
    });
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'check_failed', exit_code: 3 });
  });

  it('--jq filters the record (strings print raw)', async () => {
    const r = await h.cli(['auth', 'status', '--jq', '.profile, .logged_in'], { env: { PARCELS_API_KEY: READ_ONLY_KEY } });
    expect(r).toEqual({ code: 0, stdout: 'default\ntrue\n', stderr: '' });
  });

  it('a refused profile key names `parcels auth login --profile P`, which works as printed', async () => {
    const dir = (await import('../helpers/cli.js')).tempConfigDir();
    const env = { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined };
    const login = await h.cli(['auth', 'login', '--with-key-stdin', '--no-verify', '--profile', 'ci', '--base-url', h.sandbox.url], { dir, env, stdin: EXPIRED_KEY });
    expect(login.code, login.stderr).toBe(0);
    const r = await h.cli(['auth', 'status', '--profile', 'ci'], { dir, env });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'Error: the API key was refused (invalid or expired): the API key has expired\nHint: run `parcels auth login --profile ci` with a valid key\n',
    );
    // As typed at a terminal: the key at the hidden prompt.
    const hinted = (/`parcels ([^`]+)`/.exec(r.stderr)?.[1] ?? '').split(' ');
    const captured = captureIO({ tty: true });
    const io = { ...captured.io, stdin: Readable.from([`${FULL_KEY}\n`]), stdinIsTTY: true };
    expect(await run(hinted, { io, env: h.env({ PARCELS_CONFIG_DIR: dir, ...env }) })).toBe(0);
    h.record({ code: 0, stdout: captured.stdout(), stderr: captured.stderr() });
    expect((await h.cli(['auth', 'status', '--profile', 'ci'], { dir, env })).code).toBe(0);
  });

  it('an unreachable host: exit 8, and --offline still answers from the local settings', async () => {
    const url = await closedPortUrl();
    const r = await h.cli(['auth', 'status', '--retries', '0'], { env: { PARCELS_BASE_URL: url } });
    expect(r.code).toBe(8);
    expect(r.stdout).toBe(record(url, FULL_KEY, `logged_in\tno\nchecked\tyes\nscopes\t\nproblem\t${url} did not answer: connection refused: connect ECONNREFUSED ${url.slice(7)}\n`));
    expect(r.stderr).toBe(
      `Error: ${url} did not answer: connection refused: connect ECONNREFUSED ${url.slice(7)}\nHint: check the base URL and the network, or run \`parcels auth status --retries 0 --offline\` for the local settings only\n`,
    );
    const offline = await h.cli(['auth', 'status', '--offline'], { env: { PARCELS_BASE_URL: url } });
    expect(offline).toEqual({ code: 0, stdout: record(url, FULL_KEY, 'logged_in\tyes\nchecked\tno\nscopes\t\n'), stderr: 'Not checked (--offline): whether the service accepts the key, and which scopes it holds\n' });
  });

  it('--offline never asks the service: an expired key still shows as saved, and not checked', async () => {
    expect(await h.cli(['auth', 'status', '--offline'], { env: { PARCELS_API_KEY: EXPIRED_KEY } })).toEqual({
      code: 0,
      stdout: record(h.sandbox.url, EXPIRED_KEY, 'logged_in\tyes\nchecked\tno\nscopes\t\n'),
      stderr: 'Not checked (--offline): whether the service accepts the key, and which scopes it holds\n',
    });
    // A script reading JSON gets the record alone: `checked` says it.
    const json = await h.cli(['auth', 'status', '--offline', '--json'], { env: { PARCELS_API_KEY: EXPIRED_KEY } });
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ logged_in: true, checked: false, scopes: null });
  });

  it('a key with every scope lists them all; JSON says checked and the scopes', async () => {
    const r = await h.cli(['auth', 'status', '--json'], { env: { PARCELS_API_KEY: FULL_KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ logged_in: true, checked: true, scopes: 'deliveries:read deliveries:write usage:read oracle:read' });
  });

  it('no key at all: the record, then exit 3 with the command that logs in', async () => {
    const dir = (await import('../helpers/cli.js')).tempConfigDir();
    const r = await h.cli(['auth', 'status'], { dir, env: { PARCELS_API_KEY: undefined } });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('logged_in\tno\nchecked\tno\n');
    expect(r.stderr).toBe('Error: not logged in: no API key for profile "default"\nHint: run `parcels auth login --profile default`, or set PARCELS_API_KEY\n');
  });
});
