/**
 * `auth token` prints the profile's key (the one deliberate exception to "never in output"), and
 * `auth login` refuses plain http:// to another machine without --insecure. Outside the harness on
 * purpose: the harness checks that no key is ever printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

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
        'Error: refusing to print the API key to a terminal\n' +
        'Hint: capture it instead, e.g. export PARCELS_API_KEY=$(parcels auth token), or print it here: `parcels auth token --show`\n',
    });
    expect(await runCli(['auth', 'token', '--show'], { env: bareEnv(dir), tty: true })).toEqual({ code: 0, stdout: `${KEY}\n`, stderr: '' });
  });

  it('with no key for the profile → exit 3', async () => {
    const r = await runCli(['auth', 'token'], { env: bareEnv(tempConfigDir()) });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: 'Error: no API key for profile "default"\nHint: run `parcels auth login --profile default`, or set PARCELS_API_KEY\n',
    });
  });

  it('for a profile that does not exist → exit 2', async () => {
    const r = await runCli(['auth', 'token', '--profile', 'nobody'], { env: bareEnv(tempConfigDir()) });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --profile: profile "nobody" does not exist (no profiles are saved yet)\nHint: create it with `parcels auth login --profile nobody`\n',
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

describe('auth login to plain http:// on a terminal', () => {
  async function loginAtTerminal(answer: string) {
    const dir = tempConfigDir();
    const captured = captureIO({ tty: true });
    // A terminal: first the answer to the question, then the key at the hidden prompt.
    const io = { ...captured.io, stdin: Readable.from([`${answer}\n`, `${KEY}\n`]) };
    const code = await run(['auth', 'login', '--no-verify', '--base-url', 'http://api.example.com'], { io, env: bareEnv(dir) });
    return { dir, code, stdout: captured.stdout(), stderr: captured.stderr() };
  }

  it('asks; "y" goes on and saves the key', async () => {
    const r = await loginAtTerminal('y');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the API key would travel unencrypted');
    expect(r.stderr).toContain('Send the key over plain http anyway? [y/N] ');
    expect(JSON.parse(readFileSync(join(r.dir, 'config.json'), 'utf8'))).toMatchObject({ profiles: { default: { api_key: KEY } } });
  });

  it('anything else stops with exit 2 before the key is asked for; nothing saved', async () => {
    const r = await loginAtTerminal('n');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('API key: ');
    expect(r.stderr).toContain('Error: --insecure: login stopped: the key was not sent or saved\n');
    expect(existsSync(join(r.dir, 'config.json'))).toBe(false);
  });
});
