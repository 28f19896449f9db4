import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { OTHER_ORG_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { PARCEL_FLAGS, UUID, allParcels, createParcel, expectNoSecrets, json, parcelTsv, startHarness, tsvField } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

async function count(): Promise<number> {
  return (await allParcels(h)).length;
}

describe('create', () => {
  it('prints the record as key\\tvalue lines and a success line on stderr', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS]);
    expect(r.code).toBe(0);
    const id = tsvField(r.stdout, 'entry_id');
    expect(id).toMatch(UUID);
    expect(r.stdout).toBe(parcelTsv({ id, at: tsvField(r.stdout, 'created_at') }));
    expect(tsvField(r.stdout, 'created_at')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.stderr).toBe(`✓ Created parcel ${id}\n`);
  });

  it('--quiet prints exactly the new entry_id', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/);
    expect(r.stderr).toBe('');
  });

  it('--json prints the data object only', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--weight', '1500', '--addition', 'B', '--json']);
    const data = json(r);
    expect(r.stderr).toBe('');
    expect(data).toMatchObject({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1500, addition: 'B', status: 0 });
    expect(data.entry_id).toMatch(UUID);
  });

  it('--data inline JSON, with flags overriding its fields', async () => {
    const body = { courier: 'A-BIKE', country: 'NL', postal_code: '9999ZZ', number: '1', parcel_weight: 10 };
    const data = json(await h.cli(['create', '--data', JSON.stringify(body), '--postal-code', '1011AB', '--json']));
    expect(data).toMatchObject({ courier: 'A-BIKE', postal_code: '1011AB', number: '1', parcel_weight: 10 });
  });

  it('--data @file', async () => {
    const file = join(tempConfigDir(), 'parcel.json');
    writeFileSync(file, JSON.stringify({ courier: 'A-VAN', country: 'NL', postal_code: '2000AA', number: '7' }));
    const data = json(await h.cli(['create', '--data', `@${file}`, '--number', '8', '--json']));
    expect(data).toMatchObject({ courier: 'A-VAN', postal_code: '2000AA', number: '8' });
    expect(data.entry_id).toMatch(UUID);
  });

  it('--data @missing-file → exit 2', async () => {
    const r = await h.cli(['create', '--data', `@${join(tempConfigDir(), 'nope.json')}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --data could not read .*nope\.json: ENOENT\n$/);
  });

  it('--data - reads stdin, with flags overriding', async () => {
    const stdin = JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '3000BB', number: '3' });
    const data = json(await h.cli(['create', '--data', '-', '--courier', 'A-VAN', '--json'], { stdin }));
    expect(data).toMatchObject({ courier: 'A-VAN', country: 'NL', postal_code: '3000BB', number: '3' });
  });

  it('missing --courier → exit 2 naming --courier, nothing created', async () => {
    const before = await count();
    const r = await h.cli(['create', '--country', 'NL', '--postal-code', '1234AB', '--number', '10']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --courier is required\n' });
    expect(await count()).toBe(before);
  });

  it('--length abc → exit 2 naming --length', async () => {
    const before = await count();
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--length', 'abc']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --length must be an integer (got "abc")\n' });
    expect(await count()).toBe(before);
  });

  it('invalid JSON in --data → exit 2', async () => {
    const r = await h.cli(['create', '--data', '{nope']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: --data is not valid JSON \(.+\)\n$/);
  });

  it('--data that is not an object → exit 2', async () => {
    const r = await h.cli(['create', '--data', '[1,2]']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --data must be a JSON object\n' });
  });

  it('unknown courier → exit 6 (rejected by the service)', async () => {
    const before = await count();
    const r = await h.cli(['create', ...PARCEL_FLAGS.slice(2), '--courier', 'NO-SUCH']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    // The one detail repeats the message, so it is not printed twice.
    // The service's field is named as the flag the user typed.
    expect(r.stderr).toBe('Error: --courier is not a registered courier code of your organisation (A-BIKE, A-VAN)\n');
    expect(await count()).toBe(before);
  });

  it('--idempotency-key too short → exit 2', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', 'abc']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --idempotency-key must be 8 to 128 bytes\n' });
  });

  it('same --idempotency-key and body twice → one parcel, same entry_id', async () => {
    const before = await count();
    const key = `same-key-${Date.now()}`;
    const a = await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key, '--quiet']);
    const b = await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key, '--quiet']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(a.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(b.stdout).toBe(a.stdout);
    expect(await count()).toBe(before + 1);
  });

  it('same --idempotency-key with another body → exit 5', async () => {
    const key = `other-body-${Date.now()}`;
    expect((await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key, '--quiet'])).code).toBe(0);
    const before = await count();
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--weight', '5', '--idempotency-key', key]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `Hint: that Idempotency-Key was already used for another request: run \`parcels create ${PARCEL_FLAGS.join(' ')} --weight 5\` to send a new key\n`,
    );
    expect(await count()).toBe(before);
  });

  it('--slot-start / --slot-end accept Unix seconds, ISO 8601 and now', async () => {
    const unix = json(await h.cli(['create', ...PARCEL_FLAGS, '--slot-start', '1795334400', '--slot-end', '1795338000', '--json']));
    expect(unix).toMatchObject({ time_slot_period_start: 1795334400, time_slot_period_end: 1795338000 });
    const iso = json(await h.cli(['create', ...PARCEL_FLAGS, '--slot-start', '2026-11-22T08:00:00Z', '--slot-end', '2026-11-22T10:00:00+01:00', '--json']));
    expect(iso).toMatchObject({ time_slot_period_start: 1795334400, time_slot_period_end: 1795338000 });
    const now = json(await h.cli(['create', ...PARCEL_FLAGS, '--slot-start', 'now', '--json'], { now: () => 1795340000 }));
    expect(now.time_slot_period_start).toBe(1795340000);
  });

  it('--slot-start garbage → exit 2', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--slot-start', 'tomorrow']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --slot-start must be Unix seconds (1763798400), ISO 8601 with an offset (2026-11-22T08:00:00Z, 2026-11-22T09:00+01:00) ' +
        'or without one (2026-11-22T09:00, local time), "now", a relative time (-15m, -2h, -1d, 15m ago, +2h, in 30m), ' +
        'or a day and a local time (today 14:30, yesterday 09:00, tomorrow 08:00) (got "tomorrow")\n',
    });
  });
});

describe('get', () => {
  it('shows the record and caches the ETag so a following patch works', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir: tempConfigDir() });
    const r = await h.cli(['get', id], { dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(parcelTsv({ id, at: tsvField(r.stdout, 'created_at') }));
    const p = await h.cli(['patch', id, '--weight', '700', '--json'], { dir });
    expect(json(p).parcel_weight).toBe(700);
  });

  it('--json prints the data object', async () => {
    const id = await createParcel(h);
    const data = json(await h.cli(['get', id, '--json']));
    expect(data).toMatchObject({ entry_id: id, courier: 'A-BIKE', status: 0 });
  });

  it('a bad UUID → exit 2', async () => {
    const r = await h.cli(['get', 'abc']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: ID must be a whole id, or a unique prefix of 8 or more characters (got "abc", 3)\n' });
  });

  it('an unknown UUID → exit 4', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const r = await h.cli(['get', id]);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: `Error: no parcel with entry_id ${id}\nHint: check the id (the parcel's entry_id UUID) and that it belongs to your organisation\n`,
    });
  });

  it("another organisation's parcel → exit 4", async () => {
    const r0 = await h.cli(['create', '--courier', 'B-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'], {
      env: { PARCELS_API_KEY: OTHER_ORG_KEY },
    });
    expect(r0.code).toBe(0);
    const id = r0.stdout.trim();
    const r = await h.cli(['get', id]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no parcel with entry_id ${id}`);
    // and it is readable by its own organisation
    expect((await h.cli(['get', id, '--json'], { env: { PARCELS_API_KEY: OTHER_ORG_KEY } })).code).toBe(0);
  });
});

describe('list (a fresh sandbox, so counts are exact)', () => {
  let l: Harness;
  const ids: string[] = [];
  beforeAll(async () => {
    l = await startHarness();
    for (let i = 0; i < 7; i++) {
      const courier = i < 5 ? 'A-BIKE' : 'A-VAN';
      const r = await l.cli(['create', '--courier', courier, '--country', 'NL', '--postal-code', '1234AB', '--number', String(i + 1), '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      ids.push(r.stdout.trim());
    }
    // two parcels in transit
    for (const id of ids.slice(0, 2)) expect((await l.cli(['events', 'add', id, '--status', 'in_transit'])).code).toBe(0);
  });
  afterAll(async () => {
    expectNoSecrets(l.seen);
    await l.close();
  });

  it('one page as a table: a header line and one TSV row per parcel', async () => {
    const r = await l.cli(['list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      'entry_id\tstatus\tcourier\tcountry\tpostal_code\tnumber\taddition\tparcel_length\tparcel_width\tparcel_height\tparcel_weight\ttime_slot_period_start\ttime_slot_period_end\tservice_type\tcreated_at\tupdated_at',
    );
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(7);
    expect(rows.map((row) => row.split('\t')[0]).sort()).toEqual([...ids].sort());
    for (const row of rows) expect(row.split('\t')).toHaveLength(16);
  });

  it('--json keeps next_cursor: non-null with more pages, null on the last', async () => {
    const first = json(await l.cli(['list', '--limit', '2', '--json']));
    expect(first.parcels).toHaveLength(2);
    expect(typeof first.next_cursor).toBe('string');
    expect(first.next_cursor).not.toBe('');
    let cursor: string = first.next_cursor;
    const seen = new Set<string>(first.parcels.map((p: { entry_id: string }) => p.entry_id));
    for (;;) {
      const page = json(await l.cli(['list', '--limit', '2', '--cursor', cursor, '--json']));
      for (const p of page.parcels as { entry_id: string }[]) seen.add(p.entry_id);
      if (page.next_cursor === null) {
        expect(page.parcels.length).toBeGreaterThan(0);
        break;
      }
      cursor = page.next_cursor;
    }
    expect([...seen].sort()).toEqual([...ids].sort());
    const whole = json(await l.cli(['list', '--json']));
    expect(whole.parcels).toHaveLength(7);
    expect(whole.next_cursor).toBeNull();
  });

  it.each(['0', '101', 'x'])('--limit %s → exit 2 naming --limit', async (limit) => {
    const r = await l.cli(['list', '--limit', limit]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: --limit must be /);
  });

  it('--status in_transit equals --status 2', async () => {
    const byName = json(await l.cli(['list', '--status', 'in_transit', '--json']));
    const byNumber = json(await l.cli(['list', '--status', '2', '--json']));
    expect(byName).toEqual(byNumber);
    expect(byName.parcels.map((p: { entry_id: string }) => p.entry_id).sort()).toEqual(ids.slice(0, 2).sort());
  });

  it('--status 9 and --status bogus → exit 2', async () => {
    expect(await l.cli(['list', '--status', '9'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --status must be between 0 and 5\n' });
    const r = await l.cli(['list', '--status', 'bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --status must be a code number or one of: 0 registered, .*\(got "bogus"\)\n$/);
  });

  it('--courier filters', async () => {
    const data = json(await l.cli(['list', '--courier', 'A-VAN', '--json']));
    expect(data.parcels.map((p: { entry_id: string }) => p.entry_id).sort()).toEqual(ids.slice(5).sort());
  });

  it('--all --output ndjson yields every parcel exactly once, even with --limit 2', async () => {
    const r = await l.cli(['list', '--all', '--output', 'ndjson', '--limit', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('\n')).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    const got = lines.map((line) => (JSON.parse(line) as { entry_id: string }).entry_id);
    expect(new Set(got).size).toBe(7);
    expect(got.sort()).toEqual([...ids].sort());
  });

  it('--all --json is one valid JSON array', async () => {
    const r = await l.cli(['list', '--all', '--json', '--limit', '3']);
    const data = json(r);
    expect(Array.isArray(data)).toBe(true);
    expect(data.map((p: { entry_id: string }) => p.entry_id).sort()).toEqual([...ids].sort());
  });

  it('--fields entry_id,status in JSON and in the table', async () => {
    const data = json(await l.cli(['list', '--fields', 'entry_id,status', '--json']));
    expect(data.next_cursor).toBeNull();
    for (const p of data.parcels) expect(Object.keys(p)).toEqual(['entry_id', 'status']);
    const inTransit = data.parcels.filter((p: { status: number }) => p.status === 2).map((p: { entry_id: string }) => p.entry_id);
    expect(inTransit.sort()).toEqual(ids.slice(0, 2).sort());

    const t = await l.cli(['list', '--fields', 'entry_id,status']);
    expect(t.code).toBe(0);
    const lines = t.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('entry_id\tstatus');
    const expected = [...ids].map((id) => `${id}\t${ids.slice(0, 2).includes(id) ? '2 in_transit' : '0 registered'}`);
    expect(lines.slice(1).sort()).toEqual(expected.sort());

    const g = await l.cli(['get', ids[0] as string, '--fields', 'entry_id,status']);
    expect(g).toMatchObject({ code: 0, stdout: `entry_id\t${ids[0]}\nstatus\t2 in_transit\n` });
  });

  it('--output csv: a header and RFC 4180 rows', async () => {
    const r = await l.cli(['list', '--output', 'csv', '--fields', 'entry_id,courier']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split(/\r?\n/).filter((x) => x !== '');
    expect(lines[0]).toBe('entry_id,courier');
    expect(lines).toHaveLength(8);
  });

  it('an empty page in JSON is an empty list with a null next_cursor', async () => {
    const r = await l.cli(['list', '--status', '5', '--json']);
    expect(json(r)).toEqual({ parcels: [], next_cursor: null });
  });
});
