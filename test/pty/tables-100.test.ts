/**
 * Issue 30's "done when" for tables on a real terminal: the BUILT CLI's `track A B C` at 100
 * columns shows whole status and reason names with 8-character ids (no `event: 2 in_…`), each id a
 * prefix that resolves when pasted; piped output keeps whole ids and codes with their numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, startCli } from '../helpers/pty.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const TZ = 'Europe/Amsterdam';
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
/** In transit; failed with a reason; delivered elsewhere with an address. */
let ids: string[] = [];

async function ok(args: string[]): Promise<string> {
  const r = await parcels(args, { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
  ids = [];
  for (const n of ['1', '2', '3']) ids.push((await ok(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', n, '--quiet'])).trim());
  const [a = '', b = '', c = ''] = ids;
  await ok(['events', 'add', a, '--status', 'in_transit']);
  await ok(['attempts', 'add', b, '--outcome', 'failed', '--reason', 'address_not_found']);
  await ok(['attempts', 'add', c, '--outcome', 'delivered_elsewhere', '--delivered-country', 'NL', '--delivered-postal-code', '1011AB', '--delivered-number', '5']);
  // Six runs of the built CLI: more than the default hook allows on a loaded machine.
}, 120_000);
afterAll(async () => {
  await sandbox.close();
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const line = (...parts: (string | RegExp)[]): RegExp => new RegExp(`^${parts.map((p) => (typeof p === 'string' ? escape(p) : p.source)).join('')}$`);
const AGE = /(?:just now|\d+[sm] ago)/;
/** Three random UUIDs differ in their first 8 characters. */
const short = (id: string): string => id.slice(0, 8);

describe.skipIf(!hasPty)('track A B C at 100 columns', () => {
  it('whole status and reason names with 8-character ids, nothing left out; each id pasted resolves', async () => {
    const [a = '', b = '', c = ''] = ids;
    const run = startCli(['track', a, b, c], { env, columns: 100, tz: TZ });
    expect(await run.exited).toBe(0);
    const screen = run.lines();
    const expected = [
      line('ID        STATUS         LATEST                                 AGE', / +/, 'DELIVERED  DELIVERED TO'),
      line(`${short(a)}  in_transit     event: in_transit                      `, AGE, / +/, 'no         -'),
      line(`${short(b)}  not_delivered  attempt 1: failed (address_not_found)  `, AGE, / +/, 'no         -'),
      line(`${short(c)}  delivered      attempt 1: delivered_elsewhere         `, AGE, / +/, 'yes        5, 1011AB, NL'),
    ];
    expect(screen.length, screen.join('\n')).toBe(expected.length);
    expected.forEach((want, i) => expect(screen[i], `line ${i + 1}`).toMatch(want));
    expect(run.raw()).not.toContain('…');
    for (const key of ALL_KEYS) expect(run.raw()).not.toContain(key);

    // Every prefix on the screen is one the resolver takes, pasted as shown.
    for (const [i, row] of screen.slice(1).entries()) {
      const prefix = row.split(' ')[0] as string;
      const got = JSON.parse(await ok(['get', prefix, '--json'])) as { entry_id: string };
      expect(got.entry_id).toBe(ids[i]);
    }

    // Piped, for scripts: whole ids and codes with their numbers, as before.
    const piped = await ok(['track', a, b, c]);
    expect(piped.split('\n')[2]).toBe(`${b}\t5 not_delivered\t${piped.split('\n')[2]?.split('\t')[2]}\tattempt 1: 1 failed (2 address_not_found)\t\tno`);
  });
});
