/**
 * Issue 33's account commands at a real terminal, as a person sees them: the key typed at the hidden
 * prompt and saved with --no-verify ("saved, not checked", never "Logged in"); `auth status
 * --offline` saying what it did not check, where the online check refuses the same key; `auth
 * logout` saying it kept the profile, and `--remove-profile` removing it.
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startCli } from '../helpers/pty.js';
import { EXPIRED_KEY } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { servedForFile } from '../helpers/served.js';
import { replayTestHints } from '../helpers/spawned-hints.js';

const { sandbox } = servedForFile();

/** Runs `parcels args…` on a terminal to its end: its exit code and every line shown (stdout and stderr). */
async function shown(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; lines: string[] }> {
  const run = startCli(args, { env, columns: 100 });
  const code = await run.exited;
  return { code, lines: run.lines() };
}

/** A key that expired: the sandbox refuses it, so only a check can tell it from a good one. */
const MASKED = `********${EXPIRED_KEY.slice(-4)}`;

/** `auth login --no-verify` of profile "old" at a terminal, the key typed at its hidden prompt: what it showed. */
async function loginAtPrompt(env: NodeJS.ProcessEnv): Promise<{ code: number; lines: string[] }> {
  const run = startCli(['auth', 'login', '--profile', 'old', '--base-url', sandbox.url, '--no-verify'], { env, columns: 160 });
  await run.waitFor('API key:');
  run.type(`${EXPIRED_KEY}\r`);
  const code = await run.exited;
  // Echo was off from the moment the prompt showed: the key never reached the terminal.
  expect(run.raw()).not.toContain(EXPIRED_KEY);
  return { code, lines: run.lines() };
}

describe.skipIf(!hasPty)('accounts at a terminal (issue 33)', () => {
  it('auth login --no-verify: the key typed at the hidden prompt is saved, "not checked" — and the check it names refuses it', async () => {
    const env = binaryEnv();
    const login = await loginAtPrompt(env);
    expect(login.code).toBe(0);
    expect(login.lines).toEqual([
      'API key: ',
      `✓ Saved the key for ${sandbox.url} as profile "old" (key ${MASKED}), not checked: \`parcels auth status --profile old --base-url ${sandbox.url}\` checks it`,
    ]);
    const check = await shown(['auth', 'status', '--profile', 'old', '--base-url', sandbox.url], env);
    expect(check).toEqual({
      code: 3,
      lines: [
        'profile        old',
        `base_url       ${sandbox.url}`,
        'base_url_from  flag',
        `api_key        ${MASKED}`,
        'api_key_from   profile',
        'logged_in      no',
        'checked        yes',
        'problem        the API key was refused (invalid or expired): the API key has expired',
        'Error: the API key was refused (invalid or expired): the API key has expired',
        `Hint: run \`parcels auth login --profile old --base-url ${sandbox.url}\` with a valid key`,
      ],
    });
  });

  it('auth status --offline shows the saved record and says what it did not check', async () => {
    const env = binaryEnv();
    expect((await loginAtPrompt(env)).code).toBe(0);
    expect(await shown(['auth', 'status', '--offline', '--profile', 'old'], env)).toEqual({
      code: 0,
      lines: [
        'profile        old',
        `base_url       ${sandbox.url}`,
        'base_url_from  profile',
        `api_key        ${MASKED}`,
        'api_key_from   profile',
        'logged_in      yes',
        'checked        no',
        'Not checked (--offline): whether the service accepts the key, and which scopes it holds',
      ],
    });
  });

  it('auth logout says it kept the profile, and the command that removes it', async () => {
    const env = binaryEnv();
    expect((await loginAtPrompt(env)).code).toBe(0);
    expect(await shown(['auth', 'logout', '--profile', 'old'], env)).toEqual({
      code: 0,
      lines: ['✓ Removed the API key of profile "old"; kept its settings (`parcels auth logout --profile old --remove-profile` removes them too)'],
    });
    expect(await shown(['auth', 'status', '--offline', '--profile', 'old'], env)).toEqual({
      code: 3,
      lines: [
        'profile        old',
        `base_url       ${sandbox.url}`,
        'base_url_from  profile',
        'logged_in      no',
        'checked        no',
        'Error: not logged in: no API key for profile "old"',
        'Hint: run `parcels auth login --profile old`, or set PARCELS_API_KEY',
      ],
    });
  });

  it('auth logout --remove-profile removes the profile: it is gone for the next command', async () => {
    const env = binaryEnv();
    expect((await loginAtPrompt(env)).code).toBe(0);
    // The login's hint (`auth status --profile old`) is run now, while the profile it names exists.
    await replayTestHints();
    expect(await shown(['auth', 'logout', '--profile', 'old', '--remove-profile'], env)).toEqual({ code: 0, lines: ['✓ Removed profile "old": its key and settings'] });
    expect(await parcels(['auth', 'status', '--offline', '--profile', 'old'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --profile: profile "old" does not exist (no profiles are saved yet)\nHint: create it with `parcels auth login --profile old`\n',
    });
  });
});
