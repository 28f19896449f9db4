/**
 * The built CLI on a real terminal against a hostile server: no escape sequence the server sent
 * reaches the terminal (asserted on the bytes the terminal received), while the text itself is
 * still shown (asserted on the screen).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPty, runCli } from '../helpers/pty.js';
import { binaryEnv } from '../helpers/spawn.js';

const TITLE = '\u001b]0;pwned\u0007';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';

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

const env = (): NodeJS.ProcessEnv => binaryEnv({ PARCELS_BASE_URL: url, PARCELS_API_KEY: 'pty-test-key-0123' });

/** The sequences a hostile server tried: OSC (title, hyperlink), clear screen, cursor home, bell, C1 CSI. */
function expectNoServerSequences(raw: string): void {
  for (const sequence of ['\u001b]', '\u001b[2J', '\u001b[H', '\u0007', '\u009b']) expect(raw).not.toContain(sequence);
}

describe.skipIf(!hasPty)('hostile server text on a real terminal', () => {
  it('list: values, column names and the next-page cursor are shown inert', async () => {
    const { code, lines, raw } = await runCli(['list', '-o', 'wide'], { env: env(), columns: 200 });
    expect(code).toBe(0);
    expectNoServerSequences(raw);
    const screen = lines.join('\n');
    expect(screen).toContain('id-1]0;pwned');
    expect(screen).toContain('COL[2J[H');
    expect(screen).toContain("--cursor 'cur[2J[H'");
  });

  it('create and create --quiet: the new id is shown inert', async () => {
    const flags = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
    for (const args of [flags, [...flags, '--quiet']]) {
      const { code, lines, raw } = await runCli(args, { env: env(), columns: 200 });
      expect(code).toBe(0);
      expectNoServerSequences(raw);
      expect(lines.join('\n')).toContain('new-id]0;pwned');
    }
  });
});
