/**
 * `attempts add --outcome delivered_elsewhere` at a terminal without the delivered address: it asks
 * for it (the parcel closes for good with whatever is sent), and records what was answered.
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startCli } from '../helpers/pty.js';
import { parcels } from '../helpers/spawn.js';
import { newParcel, servedForFile } from '../helpers/served.js';

const { env } = servedForFile();

async function attempts(id: string): Promise<Record<string, unknown>[]> {
  const listed = await parcels(['attempts', 'list', id, '--json'], { env });
  return (JSON.parse(listed.stdout) as { attempts: Record<string, unknown>[] }).attempts;
}

describe.skipIf(!hasPty)('delivered_elsewhere at a terminal without the address', () => {
  it('asks for the postcode, number and addition, and records the answers ("4321 ab" as 4321AB)', async () => {
    const id = await newParcel(env);
    const run = startCli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere'], { env });
    await run.waitFor('Delivered postcode (e.g. 1234AB):');
    run.type('4321 ab\r');
    await run.waitFor('House number:');
    run.type('12\r');
    await run.waitFor('Addition (Enter for none):');
    run.type('\r');
    expect(await run.exited).toBe(0);
    expect(run.lines()).toContain(`✓ Recorded delivery attempt for parcel ${id}`);
    expect((await attempts(id))[0]?.delivered).toEqual({ delivered_country: 'NL', delivered_postal_code: '4321AB', delivered_number: '12' });
  });

  it('an empty postcode sends it without an address; a bad one is refused naming the flag, nothing sent', async () => {
    const id = await newParcel(env);
    const bad = startCli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere'], { env });
    await bad.waitFor('Delivered postcode (e.g. 1234AB):');
    bad.type('12\r');
    await bad.waitFor('House number:');
    bad.type('3\r');
    await bad.waitFor('Addition (Enter for none):');
    bad.type('\r');
    expect(await bad.exited).toBe(2);
    expect(bad.lines().join('\n')).toContain('Error: --delivered-postal-code must be a Dutch postcode');
    expect(await attempts(id)).toEqual([]);

    const none = startCli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere'], { env });
    await none.waitFor('Delivered postcode (e.g. 1234AB):');
    none.type('\r');
    expect(await none.exited).toBe(0);
    const recorded = await attempts(id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.delivered ?? null).toBeNull();
  });
});
