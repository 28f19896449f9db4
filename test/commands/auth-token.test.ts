/**
 * `auth token` prints the profile's key (the one deliberate exception to "never in output"), and
 * `auth login` refuses plain http:// to another machine without --insecure. Outside the harness on
 * purpose: the harness checks that no key is ever printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'test_token_key_5f3a9c2e';

function bareEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PARCELS_CONFIG_DIR: dir, ...extra };
}

async function loggedIn(baseUrl = 'http://127.0.0.1:8787'): Promise<string> {
  const dir = tempConfigDir();
  const r = await runCli(['auth', 'login', '--with-key-stdin', '--no-verify', '--base-url', baseUrl], { env: bareEnv(dir), stdin: KEY });
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

describe('auth token', () => {
  it("prints the profile's key alone on stdout when stdout is not a terminal", async () => {
    const dir = await loggedIn();
    expect(await runCli(['auth', 'token'], { env: bareEnv(dir) })).toEqual({ code: 0, stdout: `${KEY}\n`, stderr: '' });
  });

  it('refuses a terminal (exit 2, nothing printed) unless --show is given', async () => {
    const dir = await loggedIn();
    expect(await runCli(['auth', 'token'], { env: bareEnv(dir), tty: true })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --show: refusing to print the API key to a terminal\n' +
        'Hint: capture it instead, e.g. export PARCELS_API_KEY=$(parcels auth token), or add --show to print it here\n',
    });
    expect(await runCli(['auth', 'token', '--show'], { env: bareEnv(dir), tty: true })).toEqual({ code: 0, stdout: `${KEY}\n`, stderr: '' });
  });

  it('with no key for the profile → exit 3', async () => {
    const r = await runCli(['auth', 'token', '--profile', 'nobody'], { env: bareEnv(tempConfigDir()) });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: 'Error: no API key for profile "nobody"\nHint: run `parcels auth login --profile nobody`\n',
    });
  });
});

describe('auth login to plain http://', () => {
  const remote = 'http://api.example.com';

  it('another machine without --insecure → exit 2, the key not read and nothing saved', async () => {
    const dir = tempConfigDir();
    const r = await runCli(['auth', 'login', '--with-key-stdin', '--no-verify', '--base-url', remote], { env: bareEnv(dir), stdin: KEY });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --insecure: http://api.example.com is plain http:// to another machine: the API key would travel unencrypted\n' +
        'Hint: use an https:// base URL, or add --insecure to accept the risk\n',
    });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('--insecure goes on; loopback and https need no flag', async () => {
    for (const [baseUrl, extra] of [
      [remote, ['--insecure']],
      ['http://localhost:8787', []],
      ['http://[::1]:8787', []],
      ['https://api.example.com', []],
    ] as const) {
      const dir = tempConfigDir();
      const r = await runCli(['auth', 'login', '--with-key-stdin', '--no-verify', '--base-url', baseUrl, ...extra], { env: bareEnv(dir), stdin: KEY });
      expect(r.code, `${baseUrl}: ${r.stderr}`).toBe(0);
      const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: { default: { base_url: string } } };
      expect(saved.profiles.default.base_url).toBe(baseUrl);
    }
  });
});
