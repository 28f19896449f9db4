import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { hintedCommands, runAtTerminal } from '../helpers/terminal.js';
import { EXPIRED_KEY, FULL_KEY, READ_ONLY_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { PARCEL_FLAGS, allParcels, closedPortUrl, createParcel, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

describe('authentication and permission', () => {
  it('a read-only key on create → exit 3 naming the scope deliveries:write', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS], { env: { PARCELS_API_KEY: READ_ONLY_KEY } });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'Error: this route requires the scope deliveries:write, which the API key does not have\n' +
        'Hint: this route needs the scope "deliveries:write"; create a key with it in the API console, then put it in PARCELS_API_KEY (an unverified organisation cannot write at all)\n',
    });
    expect(await allParcels(h)).toEqual([]);
  });

  it('a read refused for its scope: the hint names the read scope and says nothing about writing', async () => {
    const r = await h.cli(['usage'], { env: { PARCELS_API_KEY: READ_ONLY_KEY } });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'Error: this route requires the scope usage:read, which the API key does not have\n' +
        'Hint: this route needs the scope "usage:read"; create a key with it in the API console, then put it in PARCELS_API_KEY\n',
    });
  });

  it('an expired key → exit 3 with a login hint', async () => {
    const r = await h.cli(['list'], { env: { PARCELS_API_KEY: EXPIRED_KEY } });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'Error: the API key has expired\n' +
        "Hint: the key in PARCELS_API_KEY was refused (invalid or expired); logging in cannot help while it is set: set PARCELS_API_KEY to a valid key, or unset it to use the profile's saved key\n",
    });
  });

  it("an expired key saved in a profile → exit 3 naming `parcels auth login` for that profile, which works as printed", async () => {
    const dir = tempConfigDir();
    const noEnvKey = { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined };
    const login = ['auth', 'login', '--profile', 'ops', '--base-url', h.sandbox.url, '--with-key-stdin', '--no-verify'];
    expect((await h.cli(login, { dir, env: noEnvKey, stdin: EXPIRED_KEY })).code).toBe(0);
    const r = await h.cli(['list', '--profile', 'ops'], { dir, env: noEnvKey });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: 'Error: the API key has expired\nHint: the API key was refused (invalid or expired): run `parcels auth login --profile ops` with a valid key\n',
    });
    const hinted = h.record(await runAtTerminal(['auth', 'login', '--profile', 'ops'], { env: h.env({ PARCELS_CONFIG_DIR: dir, ...noEnvKey }), typed: `${FULL_KEY}\r` }));
    expect(hinted.code, hinted.stderr).toBe(0);
    expect((await h.cli(['list', '--profile', 'ops'], { dir, env: noEnvKey })).code).toBe(0);
  });

  it('a saved read-only key on create: the 403 hint logs in to that profile, and works as printed', async () => {
    const dir = tempConfigDir();
    const noEnvKey = { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined };
    const login = ['auth', 'login', '--profile', 'ro', '--base-url', h.sandbox.url, '--with-key-stdin', '--no-verify'];
    expect((await h.cli(login, { dir, env: noEnvKey, stdin: READ_ONLY_KEY })).code).toBe(0);
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--profile', 'ro'], { dir, env: noEnvKey });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'Error: this route requires the scope deliveries:write, which the API key does not have\n' +
        'Hint: this route needs the scope "deliveries:write"; create a key with it in the API console, then run `parcels auth login --profile ro` (an unverified organisation cannot write at all)\n',
    });
    const hinted = h.record(await runAtTerminal(hintedCommands(r.stderr)[0] as string[], { env: h.env({ PARCELS_CONFIG_DIR: dir, ...noEnvKey }), typed: `${FULL_KEY}\r` }));
    expect(hinted.code, hinted.stderr).toBe(0);
    // The new key may write (validate-address needs deliveries:write and creates nothing; later tests expect no parcels).
    expect((await h.cli(['validate-address', '--postal-code', '1234AB', '--number', '10', '--profile', 'ro'], { dir, env: noEnvKey })).code).toBe(0);
  });

  it('no key with a typed --base-url: the login hint carries it, and works as printed', async () => {
    const dir = tempConfigDir();
    const noEnv = { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined };
    const r = await h.cli(['couriers', '--base-url', h.sandbox.url], { dir, env: noEnv });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: `Error: no API key for profile "default"\nHint: run \`parcels auth login --profile default --base-url ${h.sandbox.url}\`, or set PARCELS_API_KEY\n`,
    });
    const [login] = hintedCommands(r.stderr);
    const hinted = h.record(await runAtTerminal(login as string[], { env: h.env({ PARCELS_CONFIG_DIR: dir, ...noEnv }), typed: `${FULL_KEY}\r` }));
    expect(hinted.code, hinted.stderr).toBe(0);
    expect((await h.cli(['couriers', '--base-url', h.sandbox.url], { dir, env: noEnv })).code).toBe(0);
  });

  it('--json errors are exactly one JSON line on stderr and stdout is empty', async () => {
    const r = await h.cli(['list', '--json'], { env: { PARCELS_API_KEY: EXPIRED_KEY } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(r.stderr) as { error: Record<string, unknown> };
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(parsed.error).toMatchObject({ status: 401, code: 'expired_credentials', message: 'the API key has expired', exit_code: 3 });
  });

  it('--json usage errors are one JSON line too', async () => {
    const r = await h.cli(['list', '--limit', '0', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(r.stderr) as { error: Record<string, unknown> };
    expect(parsed.error).toMatchObject({ code: 'invalid_usage', exit_code: 2, message: '--limit must be between 1 and 100 (got 0)' });
  });
});

describe('usage errors', () => {
  it('no base URL → exit 2 with a hint whose sandbox command works as printed', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_API_KEY: FULL_KEY };
    const r = h.record(await runCli(['list', '--status', 'registered'], { env }));
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --base-url: no API base URL for profile "default"\n' +
        "Hint: try the local sandbox: `parcels list --status registered --sandbox`, or save your service's address (for URL) with `parcels auth login --profile default --base-url URL` or PARCELS_BASE_URL\n",
    });
    const [sandbox, login] = hintedCommands(r.stderr);
    const sandboxed = h.record(await runCli(sandbox as string[], { env }));
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    expect(sandboxed.stderr).toMatch(/^Using the local sandbox; its data is kept in .*\nNo parcels found\.\n$/);
    // The login, pasted with the service's address for URL, saves it: the command then runs (before, it said "no base URL" again).
    expect(login).toEqual(['auth', 'login', '--profile', 'default', '--base-url', 'URL']);
    const filled = (login as string[]).map((word) => (word === 'URL' ? h.sandbox.url : word));
    const saved = await runCli([...filled, '--with-key-stdin'], { env: { ...env, PARCELS_API_KEY: undefined }, stdin: FULL_KEY });
    expect(saved.code, saved.stderr).toBe(0);
    const again = await runCli(['list', '--status', 'registered'], { env });
    expect(again.code, again.stderr).toBe(0);
  });

  it('--output xml → exit 2 with a message naming --output, and nothing sent', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--output', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect.soft(r.stderr).toBe('Error: --output must be one of table, wide, json, ndjson, csv (got "xml")\n');
    // exit 2 promises that nothing was sent
    expect.soft(await allParcels(h)).toEqual([]);
  });

  it('PARCELS_OUTPUT=xml → exit 2 naming PARCELS_OUTPUT', async () => {
    const r = await h.cli(['couriers'], { env: { PARCELS_OUTPUT: 'xml' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PARCELS_OUTPUT');
  });

  it('an unknown command or flag → exit 2', async () => {
    expect(await h.cli(['frobnicate'])).toEqual({ code: 2, stdout: '', stderr: "Error: unknown command 'frobnicate'\nHint: run `parcels --help` for usage and examples\nUsage: parcels [options] [command]\n" });
    const flag = await h.cli(['list', '--frob']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--frob'");
    expect((await h.cli(['get'])).code).toBe(2);
  });

  it('commander is given only the typed area\'s commands, and typos still get their suggestion at either level', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['gett', id])).toEqual({ code: 2, stdout: '', stderr: `Error: unknown command 'gett'\nHint: did you mean \`parcels get ${id}\`?\nUsage: parcels [options] [command]\n` });
    expect(await h.cli(['events', 'ad', id, '--status', '1'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: unknown command 'ad'\nHint: did you mean \`parcels events add ${id} --status 1\`?\nUsage: parcels events [options] [command]\n`,
    });
    // A global flag and its value before the command word: the area is still found.
    const listed = await h.cli(['--output', 'json', 'couriers']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ couriers: [{ code: 'A-BIKE', name: 'A bikes' }, { code: 'A-VAN', name: 'A vans' }] });
  });

  it('--retries and --timeout must be numbers', async () => {
    expect((await h.cli(['couriers', '--retries', 'x'])).code).toBe(2);
    expect((await h.cli(['couriers', '--timeout', 'soon'])).code).toBe(2);
  });
});

describe('help', () => {
  it('help exit-codes / help environment / --version / --help → exit 0 on stdout', async () => {
    const codes = await h.cli(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    expect(codes.stderr).toBe('');
    for (const n of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '130']) expect(codes.stdout).toMatch(new RegExp(`^  ${n} +\\S`, 'm'));
    const env = await h.cli(['help', 'environment']);
    expect(env.code).toBe(0);
    for (const v of ['PARCELS_PROFILE', 'PARCELS_BASE_URL', 'PARCELS_API_KEY', 'PARCELS_OUTPUT', 'PARCELS_CONFIG_DIR', 'NO_COLOR']) expect(env.stdout).toContain(v);
    const version = await h.cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?\n$/);
    const help = await h.cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: parcels');
    expect(help.stdout).toContain('Examples:');
    const sub = await h.cli(['create', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--courier <code>');
    expect(sub.stdout).toContain('Examples:');
  });
});

describe('rate limits and unavailability', () => {
  it('rate limited: --retries 0 → exit 7 on the 4th request; default retries wait and succeed', async () => {
    // Rate-limit windows run on the sandbox's elapsed time: held still here, so the four requests
    // below share one window however slowly they run, and moved on while the last one waits.
    let elapsedMs = 0;
    const limited = await startHarness({ rateLimit: { requests: 3, window_s: 1 }, time: { wallMs: () => Date.now(), elapsedMs: () => elapsedMs } });
    try {
      const env = limited.env();
      const run = async (argv: string[]) => h.record(await runCli(argv, { env }));
      for (let i = 0; i < 3; i++) expect((await run(['couriers', '--json', '--retries', '0'])).code).toBe(0);
      const fourth = await run(['couriers', '--retries', '0']);
      expect(fourth.code).toBe(7);
      expect(fourth.stdout).toBe('');
      expect(fourth.stderr).toMatch(/^Error: rate limit of 3 requests per 1 s exceeded; retry after \d+ s\nHint: rate limited: wait \d+ s and try again \(or raise --retries\)\n$/);
      const refusedBefore = limited.sandbox.logs().filter((entry) => entry.status === 429).length;
      const waiting = run(['couriers', '--json']);
      // The client sleeps the 1 s Retry-After of its first (refused) try: once the sandbox has
      // answered that 429, the window is moved on, and the client's retry finds a new one.
      await expect.poll(() => limited.sandbox.logs().filter((entry) => entry.status === 429).length, { timeout: 10_000, interval: 5 }).toBe(refusedBefore + 1);
      elapsedMs += 1000;
      const waited = await waiting;
      expect(waited.code).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ couriers: [{ code: 'A-BIKE' }, { code: 'A-VAN' }] });
    } finally {
      await limited.close();
    }
  });

  it('a failing service (failRate 1) with --retries 0 → exit 8', async () => {
    const failing = await startHarness({ faults: { failRate: 1, seed: 1 } });
    try {
      const r = h.record(await runCli(['couriers', '--retries', '0'], { env: failing.env() }));
      expect(r.code).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Error: injected fault: .+\nHint: the service failed or is unavailable: try again later \(raise --retries to retry longer\)\n$/);
      const j = h.record(await runCli(['couriers', '--retries', '0', '--json'], { env: failing.env() }));
      expect(j.code).toBe(8);
      expect(JSON.parse(j.stderr).error).toMatchObject({ exit_code: 8 });
    } finally {
      await failing.close();
    }
  });

  it('connection refused with --retries 0 → exit 8', async () => {
    const unreachable = await closedPortUrl();
    const r = await h.cli(['couriers', '--retries', '0'], { env: { PARCELS_BASE_URL: unreachable } });
    expect(r.code).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^Error: connection refused: .*ECONNREFUSED 127\\.0\\.0\\.1:${new URL(unreachable).port}\n`));
  });
});

// After the rate-limit case: a login here sends a request inside its window.
describe('parser errors in the house style', () => {
  it('the parser\'s errors in the house style: a did-you-mean to paste, the usage line, choices of a required argument', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['--base-url', h.sandbox.url, 'evnts', 'list', id])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: unknown command 'evnts'\nHint: did you mean \`parcels --base-url ${h.sandbox.url} events list ${id}\`?\nUsage: parcels [options] [command]\n`,
    });
    expect(await h.cli(['oracle'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: missing required argument 'metric': one of activity, planned, coverage\nHint: run `parcels oracle --help` for usage and examples\nUsage: parcels oracle [options] <metric>\n",
    });
    expect(await h.cli(['oracle', 'planed'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: METRIC: unknown metric "planed": one of activity, planned, coverage\nHint: did you mean `parcels oracle planned`?\n',
    });
    expect(await h.cli(['list', '-o', 'jsn'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --output must be one of table, wide, json, ndjson, csv (got "jsn"); did you mean json?\n',
    });
    expect(await h.cli(['config', 'get', 'ouput'])).toMatchObject({ code: 2, stderr: expect.stringContaining('(got "ouput"); did you mean output?\n') as unknown });
    expect((await h.cli(['help', 'exit-code'])).stderr).toContain("Error: unknown help topic 'exit-code'\nHint: did you mean `parcels help exit-codes`?\n");
  });

  it('a mistyped --profile: did you mean the saved one, pasteable', async () => {
    const dir = tempConfigDir();
    const login = await h.cli(['auth', 'login', '--profile', 'ops', '--base-url', h.sandbox.url, '--with-key-stdin'], { dir, stdin: `${FULL_KEY}\n`, env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined } });
    expect(login.code, login.stderr).toBe(0);
    const r = await h.cli(['couriers', '--profile', 'osp'], { dir, env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Hint: did you mean `parcels couriers --profile ops`? Or create it with `parcels auth login --profile osp`\n');
  });
});
