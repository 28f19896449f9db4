/**
 * The built CLI's tables on a real terminal: 80 and 200 columns, colour on and off, give the same
 * columns, with ids whole; a 50-column terminal shortens the other columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, runCli, startCli } from '../helpers/pty.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';

let sandbox: RunningSandbox;
const ids: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  for (const number of ['10', '11']) {
    const response = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FULL_KEY}`, 'content-type': 'application/json', 'idempotency-key': `views-pty-${number}` },
      body: JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number }),
    });
    ids.push(((await response.json()) as { data: { entry_id: string } }).data.entry_id);
  }
});
afterAll(() => sandbox.close());

const ESC = '\u001b';
const env = (): NodeJS.ProcessEnv => binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });

describe.skipIf(!hasPty)('tables on a real terminal', () => {
  it('parcels list: the same columns at 80 and 200 columns, colour on and off, ids as unique 8-character prefixes', async () => {
    const screens: string[] = [];
    for (const columns of [80, 200]) {
      for (const colour of [true, false]) {
        const run = startCli(['list'], { env: env(), columns, colour });
        expect(await run.exited).toBe(0);
        const lines = run.lines();
        expect(run.styled(0).filter((r) => r.bold).map((r) => r.text)).toEqual(colour ? ['ID', 'STATUS', 'COURIER', 'ADDRESS', 'AGE'] : []);
        // Off: not one style or colour sequence, the spinner's included.
        if (!colour) expect(run.raw()).not.toMatch(new RegExp(`${ESC}\\[[\\d;]*m`));
        expect(lines[0]?.split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'COURIER', 'ADDRESS', 'AGE']);
        // These random UUIDs differ in their first 8 characters: that is what a terminal shows.
        expect(lines.slice(1).map((l) => l.split(' ')[0])).toEqual(ids.map((id) => id.slice(0, 8)));
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
        screens.push(lines.map((l) => l.replace(/(\d+[sm] ago|just now)$/, 'AGE')).join('\n'));
      }
    }
    expect(new Set(screens).size).toBe(1);
  });

  it('a 50-column terminal shortens the other columns and keeps each id prefix whole', async () => {
    const { code, lines } = await runCli(['list'], { env: env(), columns: 50 });
    expect(code).toBe(0);
    // The table (stdout); a notice on stderr follows it.
    const table = lines.slice(0, 1 + ids.length);
    expect(table.slice(1).map((l) => l.split(' ')[0])).toEqual(ids.map((id) => id.slice(0, 8)));
    for (const l of table) expect(l.length).toBeLessThanOrEqual(50);
  });
});
