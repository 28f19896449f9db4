/**
 * A hostile local server that echoes the caller's key back, whole or in part, in every place a
 * server controls: error messages and details, a redirect's Location, response headers (seen with
 * --verbose) and response data. None of it may reach the CLI's output in any form.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'hostile_test_key_4f9a2c7e1b6d3a8f';
let server: Server;
let url: string;
let requests = 0;

type Mode = 'whole-401' | 'part-400' | 'redirect' | 'header-and-data' | 'part-500';
let mode: Mode = 'whole-401';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  requests++;
  const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  switch (mode) {
    case 'whole-401':
      return send(res, 401, { error: { code: 'unauthorized', message: `the key ${presented} is not valid` } });
    case 'part-400':
      return send(res, 400, {
        error: { code: 'bad_request', message: `bad key near ${presented.slice(6, 18)}`, details: [{ field: 'key', message: `ends ${presented.slice(-12)}` }] },
      });
    case 'part-500':
      return send(res, 500, { message: `crashed while checking ${presented.slice(10, 22)}` });
    case 'redirect':
      return send(res, 302, {}, { location: `http://evil.example/steal?token=${presented}` });
    case 'header-and-data':
      return send(res, 200, { data: { couriers: [{ code: presented.slice(12, 24), name: presented }] } }, { 'x-echo': `Bearer ${presented}` });
  }
}

/** Where the key's secret part starts (after its public prefix "hostile_test_key_"). */
const SECRET_FROM = KEY.lastIndexOf('_') + 1;

/** Every run of 8 characters of the key reaching into its secret part that appears in `text`. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (let i = Math.max(0, SECRET_FROM - 7); i + 8 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 8))) found.push(KEY.slice(i, i + 8));
  return found;
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0' });
const FORMS: [string, string[]][] = [
  ['table', []],
  ['--json', ['--json']],
  ['--verbose', ['--verbose']],
  ['--verbose --json', ['--verbose', '--json']],
];
const CASES: [Mode, number][] = [
  ['whole-401', 3],
  ['part-400', 6],
  ['part-500', 8],
  // A 3xx is not followed; it stays an unexpected answer (exit 1), as before.
  ['redirect', 1],
  ['header-and-data', 0],
];

describe('a server echoing the key', () => {
  for (const [m, exitCode] of CASES) {
    for (const [form, flags] of FORMS) {
      it(`${m}, ${form}: exit ${exitCode} and no 8 characters of the key in stdout or stderr`, async () => {
        mode = m;
        const before = requests;
        const r = await runCli(['couriers', ...flags], { env: env() });
        expect(requests - before).toBeGreaterThan(0);
        expect(r.code, r.stderr).toBe(exitCode);
        expect(leaks(r.stdout + r.stderr)).toEqual([]);
        expect(r.stdout + r.stderr).toContain('***REDACTED***');
      });
    }
  }

  it('the redacted trace still shows the echoed header, masked', async () => {
    mode = 'header-and-data';
    const r = await runCli(['couriers', '--verbose', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('< x-echo: Bearer ***REDACTED***\n');
    expect(JSON.parse(r.stdout)).toEqual({ couriers: [{ code: '***REDACTED***', name: '***REDACTED***' }] });
  });
});

describe('control characters in header values', () => {
  it('--idempotency-key with a line break: exit 2 naming the flag, nothing sent', async () => {
    const before = requests;
    const r = await runCli(
      ['create', '--courier', 'C', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--idempotency-key', 'abc\r\nX-Evil: 1'],
      { env: env() },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--idempotency-key');
    expect(requests).toBe(before);
  });

  it('--if-match with a line break: exit 2 naming the flag, nothing sent', async () => {
    const before = requests;
    const r = await runCli(['patch', '5f0c2a9e-8d41-4b7a-9c3e-1f2d3c4b5a69', '--weight', '5', '--if-match', '"e"\nX-Evil: 1'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--if-match');
    expect(requests).toBe(before);
  });
});
