/**
 * The built binary on a real pseudo-terminal (util-linux `script`) against a hostile server: no
 * escape sequence the server sent reaches the terminal, while the text itself is still shown.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const TITLE = '\u001b]0;pwned\u0007';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';
const hasScript = spawnSync('script', ['--version']).status === 0;

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body =
      req.method === 'POST'
        ? { data: { entry_id: `new-id${TITLE}` } }
        : { data: { parcels: [{ entry_id: `id-1${TITLE}`, [`col${CLEAR}`]: `v${LINK}`, status: 2 }], next_cursor: `cur${CLEAR}` } };
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Everything the terminal received while `parcels args…` ran on a pseudo-terminal. */
function onPty(args: string[]): Promise<{ code: number; screen: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = binaryEnv({ PARCELS_BASE_URL: url, PARCELS_API_KEY: 'pty-test-key-0123', COLUMNS: '200' });
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (screen += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, screen }));
    child.stdin.end();
  });
}

/** The sequences a hostile server tried: OSC (title, hyperlink), clear screen, cursor home, bell, C1 CSI. */
function expectNoServerSequences(screen: string): void {
  for (const sequence of ['\u001b]', '\u001b[2J', '\u001b[H', '\u0007', '\u009b']) expect(screen).not.toContain(sequence);
}

describe.skipIf(!hasScript)('hostile server text on a real terminal', () => {
  it('list: values, column names and the next-page cursor are shown inert', async () => {
    const { code, screen } = await onPty(['list', '-o', 'wide']);
    expect(code).toBe(0);
    expectNoServerSequences(screen);
    expect(screen).toContain('id-1]0;pwned');
    expect(screen).toContain('COL[2J[H');
    expect(screen).toContain("--cursor 'cur[2J[H'");
  });

  it('create and create --quiet: the new id is shown inert', async () => {
    const flags = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
    for (const args of [flags, [...flags, '--quiet']]) {
      const { code, screen } = await onPty(args);
      expect(code).toBe(0);
      expectNoServerSequences(screen);
      expect(screen).toContain('new-id]0;pwned');
    }
  });
});
