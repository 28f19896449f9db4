/**
 * The built binary against `parcels sandbox serve`: a tenant made with `sandbox tenants create`
 * (one with a seed holding a parcel in transit with two events) is a sandbox of its own at its base
 * URL for every command; `sandbox reset --base-url` empties it and sets its moved clock back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedForFile } from '../helpers/served.js';
import { parcels } from '../helpers/spawn.js';
import { FULL_KEY } from '../helpers/seed.js';

const { sandbox, env } = servedForFile();
const PARCEL_ID = '3b1f0c9e-8a2d-4c5e-9f7a-1b2c3d4e5f60';

describe('tenants of a served sandbox', () => {
  it('each at its own base URL: parcels and clock apart; reset empties one at real time', async () => {
    // The admin commands find the token file the sandbox wrote in its own config directory.
    const admin = { ...env, PARCELS_CONFIG_DIR: sandbox.dir };
    const nowS = Math.floor(Date.now() / 1000);
    const seedFile = join(sandbox.dir, 'tenant-seed.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        organisations: [
          {
            id: 'shop',
            name: 'Shop',
            couriers: [{ code: 'S-VAN', name: 'Vans' }],
            keys: [{ key: FULL_KEY, scopes: ['deliveries:read', 'deliveries:write'] }],
            parcels: [{ entry_id: PARCEL_ID, courier: 'S-VAN', country: 'NL', postal_code: '1234AB', number: '5', events: [{ status: 1, occurred_at: nowS - 7200 }, { status: 2, occurred_at: nowS - 3600 }] }],
          },
        ],
      }),
    );
    const a = await parcels(['sandbox', 'tenants', 'create', 'file-a', '--json'], { env: admin });
    expect(a.code, a.stderr).toBe(0);
    const aUrl = JSON.parse(a.stdout).url as string;
    expect(aUrl).toBe(`${sandbox.url}/t/file-a`);
    const b = await parcels(['sandbox', 'tenants', 'create', 'file-b', '--seed', seedFile, '--json'], { env: admin });
    expect(b.code, b.stderr).toBe(0);
    const bUrl = JSON.parse(b.stdout).url as string;

    const created = await parcels(['--base-url', aUrl, 'create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const ids = async (url: string) => ((JSON.parse((await parcels(['--base-url', url, 'list', '--json'], { env })).stdout) as { parcels: Array<{ entry_id: string }> }).parcels).map((p) => p.entry_id);
    expect(await ids(aUrl)).toEqual([id]);
    expect(await ids(sandbox.url)).toEqual([]);
    expect(await ids(bUrl)).toEqual([PARCEL_ID]);

    const seeded = await parcels(['--base-url', bUrl, 'events', 'list', PARCEL_ID, '--json'], { env });
    expect(seeded.code, seeded.stderr).toBe(0);
    expect((JSON.parse(seeded.stdout) as { events: Array<{ status: number; occurred_at: number }> }).events.map((e) => [e.status, e.occurred_at])).toEqual([
      [1, nowS - 7200],
      [2, nowS - 3600],
    ]);
    expect(JSON.parse((await parcels(['--base-url', bUrl, 'get', PARCEL_ID, '--json'], { env })).stdout).status).toBe(2);

    const moved = await parcels(['--base-url', aUrl, 'sandbox', 'clock', 'advance', '2d', '--json'], { env: admin });
    expect(moved.code, moved.stderr).toBe(0);
    const rootClock = JSON.parse((await parcels(['--base-url', sandbox.url, 'sandbox', 'clock', '--json'], { env: admin })).stdout).now_ms as number;
    expect(JSON.parse(moved.stdout).now_ms - rootClock).toBeGreaterThan(2 * 86_400_000 - 60_000);

    const reset = await parcels(['sandbox', 'reset', '--yes', '--base-url', aUrl], { env: admin });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`✓ Reset the sandbox at ${aUrl} to its seed; its clock runs at real time (`);
    expect(await ids(aUrl)).toEqual([]);
    const clock = JSON.parse((await parcels(['--base-url', aUrl, 'sandbox', 'clock', '--json'], { env: admin })).stdout) as { now_ms: number };
    expect(Math.abs(clock.now_ms - Date.now())).toBeLessThan(60_000);
    expect(await ids(bUrl)).toEqual([PARCEL_ID]);
  });
});
