/**
 * Two terminals of one login (one config directory): a patch protects what *this* terminal read
 * (issue 30). Each terminal is a real interactive bash on its own pseudo-terminal, so the CLI finds
 * its reader the way it does for a person: the controlling terminal and its session leader.
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startShell, typedCommand } from '../helpers/pty.js';
import type { PtyRun } from '../helpers/pty.js';
import { FULL_KEY } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { servedForFile } from '../helpers/served.js';

const { sandbox, env } = servedForFile();

async function parcelOf(): Promise<{ id: string; weight: () => Promise<unknown> }> {
  const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'], { env });
  expect(created.code, created.stderr).toBe(0);
  const id = created.stdout.trim();
  const weight = async (): Promise<unknown> => (JSON.parse((await parcels(['get', id, '--json'], { env: binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY }) })).stdout) as Record<string, unknown>).parcel_weight;
  return { id, weight };
}

async function closed(term: PtyRun): Promise<void> {
  term.type('exit\r');
  expect(await term.exited).toBe(0);
}

describe.skipIf(!hasPty)('two terminals of one login', () => {
  it('T2 patching what T1 changed since T2 read it gets a 412 whose hint, pasted, applies the change on top', async () => {
    const { id, weight } = await parcelOf();
    const t1 = startShell({ env });
    const t2 = startShell({ env });
    expect((await typedCommand(t1, `parcels get ${id} >/dev/null`)).code).toBe(0);
    expect((await typedCommand(t2, `parcels get ${id} >/dev/null`)).code).toBe(0);
    expect((await typedCommand(t1, `parcels patch ${id} --weight 500 --addition A >/dev/null`)).code).toBe(0);

    const lost = await typedCommand(t2, `parcels patch ${id} --weight 900`);
    expect(lost.code).toBe(5);
    const hint = `parcels patch ${id} --weight 900 --refresh`;
    expect(lost.lines.join('\n')).toContain(`Hint: the parcel changed since you read it: run \`parcels get ${id}\` to see the latest version, or \`${hint}\` to apply your change to it`);
    expect(await weight()).toBe(500);

    expect((await typedCommand(t2, `${hint} >/dev/null`)).code).toBe(0);
    expect(await weight()).toBe(900);
    await closed(t1);
    await closed(t2);
  });

  it("a script's $(parcels get) then parcels patch in one terminal still patches", async () => {
    const { id, weight } = await parcelOf();
    const t1 = startShell({ env });
    const run = await typedCommand(t1, `seen=$(parcels get ${id} --json) && parcels patch ${id} --weight 42 >/dev/null`);
    expect(run.code).toBe(0);
    expect(await weight()).toBe(42);
    await closed(t1);
  });

  it('a new terminal inherits nothing (patch refused with the get hint); an id prefix read in T1 resolves in it', async () => {
    const { id } = await parcelOf();
    const t1 = startShell({ env });
    expect((await typedCommand(t1, `parcels get ${id} >/dev/null`)).code).toBe(0);
    await closed(t1);

    const t3 = startShell({ env });
    const refused = await typedCommand(t3, `parcels patch ${id} --weight 7`);
    expect(refused.code).toBe(2);
    expect(refused.lines.join('\n')).toContain(`Error: no cached ETag for parcel ${id} (a change is sent with If-Match)`);
    const prefix = await typedCommand(t3, `parcels get ${id.slice(0, 8)} --json | grep -c '"entry_id": "${id}"'`);
    expect(prefix.lines.at(-1)).toBe('1');
    expect(prefix.code).toBe(0);
    await closed(t3);
  });
});
