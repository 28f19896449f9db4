/**
 * Trust at the edges, through whole commands: a stored key goes only to its own host, credentials
 * in a base URL are refused, per-target caches, and hostile server text on a terminal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { Harness, RunOpts } from './harness.js';
import { createParcel, expectNoSecrets, startHarness } from './harness.js';

const TITLE = '\u001b]0;pwned\u0007';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';

/** A server that records what reached it and answers every request with `answer`. */
interface Recorder {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}
async function startRecorder(answer: (method: string) => { status: number; body: unknown }): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const { status, body } = answer(req.method ?? 'GET');
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const hostileList = {
  data: {
    parcels: [{ entry_id: `id-1${TITLE}`, [`col${CLEAR}`]: `v${LINK}`, status: 2 }],
    next_cursor: `cur${CLEAR}`,
  },
};

let h: Harness;
let other: RunningSandbox;
let recorder: Recorder;
beforeAll(async () => {
  h = await startHarness();
  other = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  recorder = await startRecorder((method) =>
    method === 'POST' ? { status: 201, body: { data: { entry_id: `new-id${TITLE}` } } } : { status: 200, body: hostileList },
  );
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await Promise.all([h.close(), other.close(), recorder.close()]);
});

/** Only the config dir and the env the test names: no key and no base URL from the environment. */
function bare(dir: string, env: NodeJS.ProcessEnv = {}, extra: Omit<RunOpts, 'dir' | 'env'> = {}): RunOpts {
  return { dir, env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined, ...env }, ...extra };
}

async function loggedIn(): Promise<string> {
  const dir = tempConfigDir();
  const r = await h.cli(['auth', 'login', '--with-key-stdin', '--base-url', h.sandbox.url], { ...bare(dir), stdin: FULL_KEY });
  expect(r.code).toBe(0);
  return dir;
}

describe('the stored key goes only to its own host', () => {
  it('--base-url or PARCELS_BASE_URL elsewhere: exit 3, nothing sent, the way on named', async () => {
    const dir = await loggedIn();
    const before = recorder.seen.length;
    const origin = new URL(h.sandbox.url).origin;
    for (const opts of [bare(dir, {}), bare(dir, { PARCELS_BASE_URL: recorder.url })]) {
      const argv = opts.env?.PARCELS_BASE_URL === undefined ? ['couriers', '--base-url', recorder.url] : ['couriers'];
      expect(await h.cli(argv, opts)).toEqual({
        code: 3,
        stdout: '',
        stderr:
          `Error: the API key of profile "default" is for ${origin}, not ${recorder.url}; it was not sent\n` +
          `Hint: set PARCELS_API_KEY for a one-off request, or run \`parcels auth login --profile default --base-url ${recorder.url}\` to save a key for that host\n`,
      });
    }
    expect(recorder.seen.length).toBe(before);
    // its own host still works
    expect((await h.cli(['couriers'], bare(dir))).code).toBe(0);
  });

  it('an explicit PARCELS_API_KEY goes to whatever base URL, and only that key', async () => {
    const dir = await loggedIn();
    const before = recorder.seen.length;
    const r = await h.cli(['list', '--json'], bare(dir, { PARCELS_BASE_URL: recorder.url, PARCELS_API_KEY: 'one-off-key-5678' }));
    expect(r.code).toBe(0);
    expect(recorder.seen.slice(before).map((s) => s.headers.authorization)).toEqual(['Bearer one-off-key-5678']);
  });

  it('`config set base_url` cannot move a logged-in profile to another host', async () => {
    const dir = await loggedIn();
    const r = await h.cli(['config', 'set', 'base_url', recorder.url], bare(dir));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`changing base_url would send it to ${recorder.url}`);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.base_url).toBe(h.sandbox.url);
  });
});

describe('credentials in a base URL', () => {
  const withCredentials = 'https://user:hunter2-secret@api.example.com';
  it('are refused by `config set`, `auth login --no-verify` and --base-url: exit 2, nothing written, never printed', async () => {
    const dir = tempConfigDir();
    const runs = [
      await h.cli(['config', 'set', 'base_url', withCredentials], bare(dir)),
      await h.cli(['auth', 'login', '--with-key-stdin', '--no-verify', '--base-url', withCredentials], { ...bare(dir), stdin: FULL_KEY }),
      await h.cli(['couriers', '--base-url', withCredentials], bare(dir, { PARCELS_API_KEY: FULL_KEY })),
    ];
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('must not contain a user name or password');
      expect(r.stderr).not.toContain('hunter2-secret');
    }
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('per-target caches', () => {
  it('with no base URL there is no target, and a table view still works', async () => {
    expect(await h.cli(['auth', 'status'], bare(tempConfigDir()))).toEqual({
      code: 3,
      stdout: 'profile\tdefault\nbase_url\t\nbase_url_from\tdefault\napi_key\t\napi_key_from\t\nlogged_in\tno\nchecked\tno\nscopes\t\n',
      stderr: 'Error: not logged in: no API key for profile "default"\nHint: run `parcels auth login --profile default --base-url URL`, or set PARCELS_API_KEY\n',
    });
  });

  it('an ETag read from one service is not used against another', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    expect((await h.cli(['get', id, '--json'], { dir })).code).toBe(0);
    // Same profile, another server: no ETag of its own, so patch stops before sending (exit 2), not a confusing 412.
    const elsewhere = await h.cli(['patch', id, '--weight', '5'], { dir, env: { PARCELS_BASE_URL: other.url } });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`no cached ETag for parcel ${id}`);
    // Back on the first service the cached ETag is still there.
    expect((await h.cli(['patch', id, '--weight', '5', '--json'], { dir })).code).toBe(0);
  });
});

describe('hostile server text on a terminal', () => {
  /** No ESC, BEL or C1 control: nothing a terminal would act on. */
  function expectInert(text: string): void {
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  }

  it('list table: values, column names and the next-page cursor; --json keeps the values exact', async () => {
    const env = { PARCELS_BASE_URL: recorder.url, PARCELS_API_KEY: 'one-off-key-5678', NO_COLOR: '1' };
    const table = await h.cli(['list'], { env, tty: true });
    expect(table.code).toBe(0);
    expectInert(table.stdout);
    expectInert(table.stderr);
    expect(table.stderr).toContain("--cursor 'cur[2J[H'");
    const json = await h.cli(['list', '--json'], { env, tty: true });
    expect(JSON.parse(json.stdout)).toEqual(hostileList.data);
  });

  it('create: the success message and --quiet', async () => {
    const env = { PARCELS_BASE_URL: recorder.url, PARCELS_API_KEY: 'one-off-key-5678', NO_COLOR: '1' };
    const flags = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
    const shown = await h.cli(flags, { env, tty: true });
    expect(shown.code).toBe(0);
    expectInert(shown.stdout);
    // (before it, the spinner's frames: this is a terminal)
    expect(shown.stderr.endsWith('✓ Created parcel new-id]0;pwned\n')).toBe(true);
    expect(shown.stderr).not.toContain(TITLE);
    const quiet = await h.cli([...flags, '--quiet'], { env, tty: true });
    expect(quiet).toEqual({ code: 0, stdout: 'new-id]0;pwned\n', stderr: '' });
  });
});
