import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, json, parcelTsv, startHarness, tsvField } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** A parcel whose ETag is cached in a fresh config dir. */
async function readParcel(extra: string[] = []): Promise<{ id: string; dir: string }> {
  const id = await createParcel(h, extra);
  const dir = tempConfigDir();
  expect((await h.cli(['get', id], { dir })).code).toBe(0);
  return { id, dir };
}

async function current(id: string): Promise<Record<string, unknown>> {
  return json(await h.cli(['get', id, '--json'])) as Record<string, unknown>;
}

describe('patch', () => {
  it('without a prior get → exit 2 with a hint, and nothing is sent', async () => {
    const id = await createParcel(h);
    const before = await current(id);
    const r = await h.cli(['patch', id, '--weight', '1200']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: no cached ETag for parcel ${id} (a change is sent with If-Match)\n` +
        `Hint: run \`parcels get ${id}\` first (it caches the ETag), or \`parcels patch ${id} --weight 1200 --refresh\` to read the latest one before patching\n`,
    });
    expect(await current(id)).toEqual(before);
  });

  it('after get → exit 0, the change applied, a success line on stderr', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id, '--weight', '1200'], { dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(parcelTsv({ id, weight: '1200', at: tsvField(r.stdout, 'created_at'), updated: tsvField(r.stdout, 'updated_at') }));
    expect(r.stderr).toBe(`✓ Updated parcel ${id}\n`);
    expect((await current(id)).parcel_weight).toBe(1200);
    // the new ETag is cached: a second patch in a row works too
    const again = await h.cli(['patch', id, '--addition', 'C', '--json'], { dir });
    expect(json(again)).toMatchObject({ parcel_weight: 1200, addition: 'C' });
  });

  it('--refresh works without a prior get', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['patch', id, '--weight', '42', '--refresh', '--json']);
    expect(json(r)).toMatchObject({ entry_id: id, parcel_weight: 42 });
    expect(r.stderr).toBe('');
  });

  it('--if-match \'"stale"\' → exit 5, explaining that the parcel changed since it was read', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['patch', id, '--weight', '1', '--if-match', '"stale"']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: If-Match does not match the parcel's current ETag "[^"]+"; read it again\n/);
    expect(r.stderr).toContain(
      `Hint: the parcel changed since you read it: run \`parcels get ${id}\` to see the latest version, or \`parcels patch ${id} --weight 1 --refresh\` to apply your change to it\n`,
    );
    expect((await current(id)).parcel_weight).toBeNull();
  });

  it('--if-match with the current ETag (from --verbose) works', async () => {
    const id = await createParcel(h);
    const g = await h.cli(['get', id, '--verbose']);
    const etag = /^< etag: (".*")$/m.exec(g.stderr)?.[1];
    expect(etag).toBeDefined();
    const r = await h.cli(['patch', id, '--weight', '3', '--if-match', etag as string, '--json']);
    expect(json(r).parcel_weight).toBe(3);
  });

  it('a stale cached ETag (the parcel changed after get) → exit 5, nothing changed', async () => {
    const { id, dir } = await readParcel();
    // another client (another config dir) reports an event: the parcel's ETag changes
    expect((await h.cli(['events', 'add', id, '--status', 'picked_up'])).code).toBe(0);
    const r = await h.cli(['patch', id, '--weight', '9'], { dir });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Hint: the parcel changed since you read it');
    expect(await current(id)).toMatchObject({ parcel_weight: null, status: 1 });
  });

  it('two readers of one login (PARCELS_SESSION): the second patch gets a 412, not the first one\'s change overwritten', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    const t1 = { dir, env: { PARCELS_SESSION: 't1' } };
    const t2 = { dir, env: { PARCELS_SESSION: 't2' } };
    expect((await h.cli(['get', id], t1)).code).toBe(0);
    expect((await h.cli(['get', id], t2)).code).toBe(0);
    expect((await h.cli(['patch', id, '--weight', '500', '--addition', 'A'], t1)).code).toBe(0);
    const r = await h.cli(['patch', id, '--weight', '900'], t2);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `Hint: the parcel changed since you read it: run \`parcels get ${id}\` to see the latest version, or \`parcels patch ${id} --weight 900 --refresh\` to apply your change to it\n`,
    );
    expect(await current(id)).toMatchObject({ parcel_weight: 500, addition: 'A' });
    // T2 reads again and its change goes through on top of T1's.
    expect((await h.cli(['get', id], t2)).code).toBe(0);
    expect((await h.cli(['patch', id, '--weight', '900'], t2)).code).toBe(0);
    expect(await current(id)).toMatchObject({ parcel_weight: 900, addition: 'A' });
  });

  it('a reader that never read the parcel is refused with the get hint, though another reader of the login did', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    expect((await h.cli(['get', id], { dir, env: { PARCELS_SESSION: 'reader-a' } })).code).toBe(0);
    const r = await h.cli(['patch', id, '--weight', '7'], { dir, env: { PARCELS_SESSION: 'reader-b' } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: no cached ETag for parcel ${id} (a change is sent with If-Match)\n` +
        `Hint: run \`parcels get ${id}\` first (it caches the ETag), or \`parcels patch ${id} --weight 7 --refresh\` to read the latest one before patching\n`,
    });
  });

  it('an id prefix read by one reader resolves for another reader of the login', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    expect((await h.cli(['get', id], { dir, env: { PARCELS_SESSION: 'p1' } })).code).toBe(0);
    const r = await h.cli(['get', id.slice(0, 8), '--json'], { dir, env: { PARCELS_SESSION: 'p2' } });
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({ entry_id: id });
  });

  it('has every field flag create has, parsed as create parses them (times, names, "1234 ab")', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(
      ['patch', id, '--slot-start', '2030-01-02T09:00:00Z', '--slot-end', '1893574800', '--service-type', 'next_day', '--country', 'nl', '--postal-code', '4321 ab', '--length', '30', '--json'],
      { dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({ time_slot_period_start: 1893574800, time_slot_period_end: 1893574800, service_type: 2, country: 'NL', postal_code: '4321AB', parcel_length: 30 });
  });

  it('a field flag and --set changing one field: refused, naming both flags', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id, '--set', 'time_slot_period_start=now', '--slot-start', 'now'], { dir });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --slot-start and --set both change time_slot_period_start: give one\n',
    });
  });

  it('--clear weight sends null: the weight is cleared', async () => {
    const { id, dir } = await readParcel(['--weight', '500']);
    expect((await current(id)).parcel_weight).toBe(500);
    const r = await h.cli(['patch', id, '--clear', 'weight', '--json'], { dir });
    expect(json(r).parcel_weight).toBeNull();
    expect((await current(id)).parcel_weight).toBeNull();
  });

  it('--clear addition clears the addition', async () => {
    const { id, dir } = await readParcel(['--addition', 'B']);
    expect((await current(id)).addition).toBe('B');
    const r = await h.cli(['patch', id, '--clear', 'addition', '--json'], { dir });
    expect(r.code).toBe(0);
    expect([null, '']).toContain((await current(id)).addition);
  });

  it('--set service_type=2 sets a number', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id, '--set', 'service_type=2', '--json'], { dir });
    expect(json(r).service_type).toBe(2);
  });

  it('--data with a body patches too', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id, '--data', '{"parcel_length":30}', '--weight', '8', '--json'], { dir });
    expect(json(r)).toMatchObject({ parcel_length: 30, parcel_weight: 8 });
  });

  it('--weight with --clear weight → exit 2', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id, '--weight', '1', '--clear', 'weight'], { dir });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --clear and --weight both change parcel_weight: give one\n' });
  });

  it('nothing to change → exit 2', async () => {
    const { id, dir } = await readParcel();
    const r = await h.cli(['patch', id], { dir });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: nothing to change: give a field flag (--weight, --slot-start, … see --help), --clear FIELD, --set FIELD=VALUE or --data\n',
    });
  });

  it('--if-match without quotes → exit 2', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['patch', id, '--weight', '1', '--if-match', 'abc']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --if-match must be a quoted entity tag, e.g. "abc123", copied verbatim with its quotes\n',
    });
  });

  it('--if-match with --refresh → exit 2', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['patch', id, '--weight', '1', '--if-match', '"x"', '--refresh']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --if-match and --refresh cannot be used together\n' });
  });

  it('--weight abc and a bad id → exit 2', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['patch', id, '--weight', 'abc', '--refresh'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --weight must be an integer (got "abc")\n',
    });
    expect((await h.cli(['patch', 'nope', '--weight', '1', '--refresh'])).code).toBe(2);
  });

  it('an unknown parcel with --refresh → exit 4', async () => {
    const r = await h.cli(['patch', '00000000-0000-4000-8000-000000000000', '--weight', '1', '--refresh']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});
