/**
 * "No control character from a service reaches a terminal in any format": the built CLI on a real
 * terminal against a server whose every text is an attack (window title, clear screen and
 * scrollback, an OSC 8 link, DCS and APC strings, a C1 CSI, VT/FF/BS, bidi overrides, zero-width and
 * tag characters). Asserted on the bytes the terminal received, in every output format, while the
 * text itself is still shown (format characters as `<U+202E>`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPty, runCli } from '../helpers/pty.js';
import { binaryEnv } from '../helpers/spawn.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import type { HostileServer } from '../helpers/hostile-server.js';

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[3J\u001b[H';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const DCS = '\u001bP+q544e\u001b\\';
const APC = '\u001b_evil\u001b\\';
const C1_CSI = '\u009b2J';
const OVERSTRIKE = 'a\u000bb\u000cc\u0008d';
const BIDI = '\u202eevil\u202c';
const HIDDEN = 'x\u200by\u{e0041}';

const ID = '0b6f3c1e-8d2a-4f5b-9c3d-1e2f3a4b5c6d';

const PARCEL = {
  entry_id: `id-1${TITLE}`,
  courier: `C${CLEAR}`,
  country: 'NL',
  postal_code: `P${DCS}`,
  number: `N${APC}`,
  addition: `A${LINK}`,
  status: 2,
  [`col${CLEAR}`]: `v${C1_CSI}${OVERSTRIKE}`,
  note: `${BIDI}${HIDDEN}`,
};

/** What the server sent that must never reach the terminal as it is. */
const FORBIDDEN = ['\u001b]', '\u001b[2J', '\u001b[3J', '\u001bP', '\u001b_', '\u009b', '\u0007', '\u000b', '\u000c', '\u0008', '\u202e', '\u202c', '\u200b', '\u{e0041}'];

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer((req) =>
    /\/parcels\/[^/?]+$/.test(req.url.split('?')[0] ?? '') ? { status: 200, body: { data: PARCEL } } : { status: 200, body: { data: { parcels: [PARCEL], next_cursor: null } } },
  );
});
afterAll(() => server.close());

const env = (): NodeJS.ProcessEnv => binaryEnv({ PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'pty-test-key-0123' });

function expectInert(raw: string): void {
  for (const sequence of FORBIDDEN) expect(raw, JSON.stringify(sequence)).not.toContain(sequence);
}

describe.skipIf(!hasPty)('a hostile service on a real terminal, in every output format', () => {
  const commands: string[][] = [];
  for (const format of ['table', 'wide', 'csv', 'json', 'ndjson']) commands.push(['list', '-o', format], ['get', ID, '-o', format]);
  commands.push(['list', '--jq', '.parcels[].note'], ['get', ID, '--fields', 'note,addition']);

  it.each(commands.map((args) => [args.join(' '), args]))('%s: nothing the server sent reaches the terminal as a control', async (_name, args) => {
    const { code, raw } = await runCli(args as string[], { env: env(), columns: 400 });
    expect(code).toBe(0);
    expectInert(raw);
  });

  it('csv on a terminal shows the text, each control removed and each format character named', async () => {
    const { code, lines } = await runCli(['list', '-o', 'csv', '--fields', 'entry_id,note,addition'], { env: env(), columns: 400 });
    expect(code).toBe(0);
    expect(lines).toEqual(['entry_id,note,addition', 'id-1]0;pwned,<U+202E>evil<U+202C>x<U+200B>y<U+E0041>,A]8;;https://evil.example\\click]8;;\\']);
  });

  it('json on a terminal escapes what it cannot show: the same value for a script, inert for a person', async () => {
    const { code, lines } = await runCli(['get', ID, '--json', '--fields', 'note'], { env: env(), columns: 400 });
    expect(code).toBe(0);
    expect(lines).toEqual(['{', '  "note": "\\u202eevil\\u202cx\\u200by\\udb40\\udc41"', '}']);
  });
});
