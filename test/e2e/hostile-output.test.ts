/**
 * Issue 7, done-when: one hostile server that echoes the caller's key (whole and a 12-character
 * run) and puts escape sequences (OSC title, OSC 8 link, CSI clear screen, C1 controls) in every
 * field, value, key used as a column name, cursor, code name and message, answers with errors, a
 * redirect and a huge body. Every read and write command runs against it in table, -o wide,
 * --json, -q, --verbose and --dry-run forms (in-process, piped), and the terminal forms run the
 * built binary on a real pseudo-terminal. No captured output may hold 8 characters of the key or
 * an escape sequence the server sent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { binaryEnv } from '../helpers/spawn.js';
import { ADMIN_PROOF_PATH, adminProof } from '../../src/schemas/admin-proof.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

/** No "_" or "-" in it: every run of 8 of its characters counts as a leak. */
const KEY = 'hk9f2c4e7a1b3d5f60a8c2e4d6b1';
const TITLE = '\u001b]0;pwned\u0007';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';
const C1 = '\u009b31m\u009d0;c1\u009c\u0085';
const EVIL = TITLE + LINK + CLEAR + C1;
const ID = '5f0c2a9e-8d41-4b7a-9c3e-1f2d3c4b5a69';
const T = 1_795_377_467;

type Mode = 'data' | 'error' | 'redirect' | 'huge';
let mode: Mode = 'data';
let errorStatus = 400;
let requests = 0;

/** Server text: a label, every escape sequence, the key the caller presented, and 12 characters of it. */
function hostile(label: string, key: string): string {
  return `${label}${EVIL}${key} ${key.slice(5, 17)}`;
}

function dataFor(req: IncomingMessage, key: string): unknown {
  const h = (label: string): string => hostile(label, key);
  const parcel = {
    entry_id: h('id'),
    status: 2,
    courier: h('courier'),
    postal_code: h('pc'),
    number: h('nr'),
    created_at: T,
    [h('column')]: h('value'),
    nested: { [h('inner')]: h('deep') },
    tags: [h('tag')],
  };
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (path === '/deliveries/v1/reference') {
    return { statuses: [0, 1, 2, 3, 4, 5].map((code) => ({ code, name: h(`s${code}`) })), outcomes: [{ code: 1, name: h('failed') }] };
  }
  if (path === '/deliveries/v1/parcels' && req.method === 'GET') return { parcels: [parcel, parcel], next_cursor: h(`cursor${requests}`) };
  if (path.endsWith('/events')) return { events: [{ event_id: h('ev'), status: 2, occurred_at: T, [h('k')]: h('v') }] };
  if (path.endsWith('/attempts')) return { attempts: [{ attempt_no: 1, outcome: 1, reason: 1, time_attempt: T, delivered: { delivered_city: h('city') } }] };
  if (path === '/account/v1/couriers') return { couriers: [{ code: h('code'), name: h('name') }] };
  if (path === '/account/v1/overview') return { parcels: { total: 1, by_status: [{ status: 0, name: h('n'), count: 1 }] }, couriers: [{ code: h('c') }], [h('k')]: h('v') };
  if (path.includes('/usage/daily')) return { days: [{ date: h('day'), requests: 1 }] };
  if (path.includes('/usage/requests')) return { requests: [{ method: h('GET'), path: h('/p'), status: 200, at: T }] };
  if (path.includes('/oracle/')) return { metric: h('m'), days: [{ date: h('d'), events: 1 }], countries: [h('NL')], areas: [{ [h('a')]: h('b') }] };
  return parcel;
}

/** A body over the client's 32 MB bound, made of server text. */
function hugeBody(key: string): string {
  const chunk = JSON.stringify(hostile('x', key)).slice(1, -1);
  return `{"data":{"entry_id":"${chunk.repeat(Math.ceil((33 * 1024 * 1024) / chunk.length))}"}}`;
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  requests++;
  req.resume();
  // A sandbox that holds its admin token (KEY here) and is hostile in what it answers: it proves the
  // token first (schemas/admin-proof.ts), as the CLI asks before sending it.
  const asked = new URL(req.url ?? '/', 'http://x');
  if (asked.pathname === ADMIN_PROOF_PATH) {
    const proof = adminProof(KEY, asked.searchParams.get('nonce') ?? '', req.socket.localAddress ?? '', req.socket.localPort ?? 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { proof } }));
    return;
  }
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  // Header values may not hold C0 controls (Node refuses them), but C1 controls and the key pass.
  const headers = { 'content-type': 'application/json', 'x-echo': `Bearer ${key} \u009b2J\u009d0;t`, etag: `"${key}\u009b"` };
  switch (mode) {
    case 'data':
      res.writeHead(req.method === 'POST' ? 201 : 200, headers).end(JSON.stringify({ data: dataFor(req, key) }));
      return;
    case 'error': {
      const body = { error: { code: hostile('code', key), message: hostile('message', key), details: [{ field: hostile('field', key), message: hostile('detail', key) }] } };
      res.writeHead(errorStatus, headers).end(JSON.stringify(body));
      return;
    }
    case 'redirect':
      res.writeHead(302, { ...headers, location: `http://evil.example/${key}/\u009b2J?k=${key.slice(5, 17)}` }).end(JSON.stringify({ message: hostile('moved', key) }));
      return;
    case 'huge':
      res.writeHead(200, headers).end(hugeBody(key));
      return;
  }
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every run of 8 characters of the key found in `text`. */
function keyLeaks(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 8))) found.push(KEY.slice(i, i + 8));
  return found;
}

/** The sequences the server tried: OSC (title, hyperlink), clear screen, cursor home, BEL, and any C1 control. */
function serverSequences(text: string): string[] {
  const found = ['\u001b]', '\u001b[2J', '\u001b[H', '\u0007', '\u001b\\'].filter((s) => text.includes(s));
  const c1 = /[\u0080-\u009f]/.exec(text);
  return c1 === null ? found : [...found, `U+${c1[0].charCodeAt(0).toString(16)}`];
}

const PARCEL = ['--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
const READS: string[][] = [
  ['get', ID],
  ['list'],
  ['list', '--all', '--max', '3'],
  ['events', 'list', ID],
  ['attempts', 'list', ID],
  ['couriers'],
  ['overview'],
  ['usage', 'daily'],
  ['usage', 'requests'],
  ['reference'],
  ['oracle', 'activity'],
  ['oracle', 'coverage'],
];
const WRITES: string[][] = [
  ['create', ...PARCEL],
  ['patch', ID, '--weight', '5', '--if-match', '"e1"'],
  ['events', 'add', ID, '--status', '1'],
  ['attempts', 'add', ID, '--outcome', 'failed', '--reason', '1'],
  ['validate-address', '--postal-code', '1234AB', '--number', '1'],
];
const FORMS: string[][] = [[], ['-o', 'wide'], ['--json'], ['-q'], ['--verbose'], ['--dry-run']];
const ERRORS = [400, 401, 404, 409, 500];

function env(): NodeJS.ProcessEnv {
  return { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0' };
}

async function expectClean(argv: string[]): Promise<number> {
  const before = requests;
  const r = await runCli(argv, { env: env() });
  const out = r.stdout + r.stderr;
  expect(keyLeaks(out), `${argv.join(' ')}\n${out.slice(0, 2000)}`).toEqual([]);
  expect(serverSequences(out), `${argv.join(' ')}\n${out.slice(0, 2000)}`).toEqual([]);
  // Piped and without colour, not even our own styling may appear.
  expect(out.includes('\u001b'), argv.join(' ')).toBe(false);
  if (!argv.includes('--dry-run')) expect(requests, argv.join(' ')).toBeGreaterThan(before);
  return r.code;
}

describe('every command against a hostile server, piped', () => {
  it('answers with hostile data: nothing of the key, no escape sequence, in any form', async () => {
    mode = 'data';
    for (const command of [...READS, ...WRITES]) {
      for (const form of FORMS) {
        const code = await expectClean([...command, ...form]);
        // A few of these are refusals (exit 2: -q/--fields rules, csv), none may be a crash.
        expect(code, [...command, ...form].join(' ')).not.toBe(1);
      }
    }
  });

  it('answers with errors carrying the key and escapes: nothing of either reaches the output', async () => {
    mode = 'error';
    let i = 0;
    for (const command of [...READS, ...WRITES]) {
      for (const form of [[], ['--json'], ['--verbose']]) {
        errorStatus = ERRORS[i++ % ERRORS.length] as number;
        const code = await expectClean([...command, ...form]);
        expect(code, `${command.join(' ')} ${errorStatus}`).toBeGreaterThan(1);
      }
    }
  });

  it('answers with a redirect whose Location carries the key: not followed, not printed', async () => {
    mode = 'redirect';
    for (const command of [['get', ID], ['list'], ['create', ...PARCEL]]) {
      for (const form of [[], ['--json'], ['--verbose']]) await expectClean([...command, ...form]);
    }
  });

  it('answers with a body over 32 MB: refused, and nothing of it printed', async () => {
    mode = 'huge';
    for (const command of [['get', ID], ['list'], ['create', ...PARCEL]]) {
      for (const form of [[], ['--json']]) expect(await expectClean([...command, ...form])).toBe(8);
    }
  });
});

describe('--verbose on every sender (issue 28): one sanitised trace sink', () => {
  it('bulk, doctor, login, the sandbox admin and a one-shot command trace the hostile answers without their escapes or the key', async () => {
    mode = 'data';
    const dir = tempConfigDir();
    const lines = join(dir, 'in.ndjson');
    writeFileSync(lines, `${JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1' })}\n`);
    const runs: { argv: string[]; env?: NodeJS.ProcessEnv; stdin?: string }[] = [
      { argv: ['create', '--from', lines, '--verbose'] },
      { argv: ['doctor', '--verbose'] },
      { argv: ['auth', 'login', '--with-key-stdin', '--verbose'], env: { PARCELS_API_KEY: '' }, stdin: KEY },
      { argv: ['sandbox', 'clock', '--verbose'], env: { PARCELS_SANDBOX_ADMIN_TOKEN: KEY } },
      { argv: ['get', ID, '--verbose'] },
    ];
    for (const { argv, env: extra, stdin } of runs) {
      const before = requests;
      const r = await runCli(argv, { env: { ...env(), ...extra }, ...(stdin === undefined ? {} : { stdin }) });
      const out = r.stdout + r.stderr;
      expect(r.code, `${argv.join(' ')}\n${out.slice(0, 2000)}`).not.toBe(1);
      expect(requests, argv.join(' ')).toBeGreaterThan(before);
      // It traced: the answer's status line and the hostile header, both inert.
      expect(r.stderr, argv.join(' ')).toMatch(/^< 20[01] /m);
      expect(r.stderr, argv.join(' ')).toMatch(/^< x-echo: Bearer /m);
      expect(keyLeaks(out), `${argv.join(' ')}\n${out.slice(0, 2000)}`).toEqual([]);
      expect(serverSequences(out), `${argv.join(' ')}\n${out.slice(0, 2000)}`).toEqual([]);
    }
  });
});

/** Everything a terminal received while `parcels args…` ran on a pseudo-terminal (colour on). */
function onPty(args: string[]): Promise<string> {
  const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
  const env = binaryEnv({ PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0', TERM: 'xterm-256color' });
  delete env.NO_COLOR;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', `stty cols 120; ${[process.execPath, BIN, ...args].map(quote).join(' ')}`, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (screen += c));
    child.on('error', reject);
    child.on('close', () => resolve(screen));
    child.stdin.end();
  });
}

describe.skipIf(!hasScript)('terminal forms on a real pseudo-terminal', () => {
  it('tables, records, messages, hints and errors show the server text inert and without the key', async () => {
    const runs: [Mode, string[]][] = [
      ['data', ['list']],
      ['data', ['get', ID]],
      ['data', ['overview']],
      ['data', ['events', 'list', ID]],
      ['data', ['create', ...PARCEL]],
      ['data', ['create', ...PARCEL, '-q']],
      ['data', ['list', '--verbose']],
      ['data', ['get', ID, '--dry-run']],
      ['error', ['get', ID]],
      ['redirect', ['list']],
    ];
    for (const [m, args] of runs) {
      mode = m;
      errorStatus = 409;
      const screen = await onPty(args);
      expect(keyLeaks(screen), `${args.join(' ')}\n${screen}`).toEqual([]);
      expect(serverSequences(screen), `${args.join(' ')}\n${screen}`).toEqual([]);
    }
  }, 60_000);
});
