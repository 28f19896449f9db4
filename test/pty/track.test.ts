/**
 * `track --watch` on a real terminal, to its end: a parcel walking through the sandbox's `happy`
 * scenario (four steps over 5 h 15 m of data time). The test clock stands still until the watch
 * shows the parcel, then runs at 3,600 × real time (`--speed 3600`): the steps arrive while it watches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hasPty, startCli } from '../helpers/pty.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, parcels, serveSandbox } from '../helpers/spawn.js';

let sandbox: ServedSandbox | undefined;
afterEach(async () => {
  expect(await sandbox?.stop()).toBe(0);
  sandbox = undefined;
});

/** The timeline's rows as `entry state`, e.g. `attempt 1 delivered` (a terminal shows a code by its name alone). */
function timeline(lines: string[]): string[] {
  return lines.flatMap((l) => {
    const row = /\s((?:event|attempt \d+)\s+[a-z_]+)/.exec(l);
    return row ? [(row[1] as string).replace(/\s+/g, ' ')] : [];
  });
}

describe.skipIf(!hasPty)('track --watch on a terminal', () => {
  it('follows a parcel to its delivery: each entry shown once, as it arrives; exit 0', async () => {
    sandbox = await serveSandbox(TEST_SEED, ['--frozen', '--speed', '3600']);
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '9999HA', '--number', '1', '--quiet'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const run = startCli(['track', id, '--watch', '--interval', '1'], { env, columns: 100, rows: 40, tz: 'UTC' });
    // The record leaves out its empty fields: its keys align on `postal_code`.
    const first = await run.waitFor(`entry_id     ${id}`);
    expect(timeline(first)).toEqual([]);

    // The sandbox's own config directory holds its admin token file.
    const resumed = await parcels(['sandbox', 'clock', 'resume'], { env: { ...env, PARCELS_CONFIG_DIR: sandbox.dir } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await run.exited).toBe(0);
    expect(timeline(run.lines())).toEqual(['event picked_up', 'event in_transit', 'event in_delivery', 'attempt 1 delivered']);
    for (const key of ALL_KEYS) expect(run.raw()).not.toContain(key);
  });
});
