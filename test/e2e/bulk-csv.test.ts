/**
 * End-to-end CSV as spreadsheets write it: the built `parcels` binary, spawned, against `parcels
 * sandbox serve` over real HTTP, counting parcels on the service. A stray quote is one bad line;
 * a quoted multi-line cell is one record naming its span; semicolon and tab files import; unknown
 * columns are refused before anything is sent; values are read as their flags read them.
 */
import { describe, expect, it } from 'vitest';
import { bulkHelpers } from '../helpers/bulk.js';

const { parcels, serve, writeLines, results, allParcels } = bulkHelpers();

const numbers = (list: Array<Record<string, unknown>>): number[] => list.map((p) => Number(p.number)).sort((a, b) => a - b);

describe('every physical line accounted for', () => {
  it('a 2,000-line file with an unclosed quote on line 101: every good line is created, exactly one bad line (exit 2)', async () => {
    const { env, dir } = await serve();
    const rows = Array.from({ length: 1999 }, (_, i) => `A-BIKE,NL,1234AB,${i + 2}`);
    rows[99] = 'A-BIKE,NL,1234AB,"101';
    const input = writeLines(dir, 'stray.csv', ['courier,country,postal_code,number', ...rows]);
    const r = await parcels(['create', '--from', input, '--concurrency', '16'], { env });
    expect(r.code).toBe(2);
    const lines = results(r);
    expect(lines).toHaveLength(1999);
    expect(lines.filter((l) => l.ok !== true)).toEqual([
      { line: 101, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: 'is not valid CSV (the quote opened in column "number" is not closed on this line)' } },
    ]);
    expect(r.stderr).toMatch(/1998 created/);
    const created = numbers(await allParcels(env));
    expect(created).toHaveLength(1998);
    expect(created).toEqual(Array.from({ length: 1999 }, (_, i) => i + 2).filter((n) => n !== 101));
  }, 120_000);

  it('a quoted two-line cell in an ignored column imports as one line naming its span', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'notes.csv', ['courier,country,postal_code,number,notes', 'A-BIKE,NL,1234AB,1,"ring twice', 'back door, left"', 'A-BIKE,NL,1234AB,2,plain']);
    const r = await parcels(['create', '--from', input, '--ignore-columns', 'notes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(results(r).map((l) => [l.line, l.end_line, l.outcome])).toEqual([
      [2, 3, 'created'],
      [4, undefined, 'created'],
    ]);
    expect(Object.keys(results(r)[0] as object).slice(0, 2)).toEqual(['line', 'end_line']);
    const created = await allParcels(env);
    expect(numbers(created)).toEqual([1, 2]);
    expect(created.every((p) => !('notes' in p))).toBe(true);
  });
});

describe('files as spreadsheets write them', () => {
  it('a semicolon file (BOM, CRLF, Dutch diacritics) and a tab file import', async () => {
    const { env, dir } = await serve();
    const semicolon = writeLines(dir, 'export.csv', ['\uFEFFcourier;country;postal_code;number;addition\r', 'A-BIKE;NL;1234AB;1;"bis; achter"\r', 'A-BIKE;NL;1234AB;2;Zuidelijke Ærö\r']);
    const a = await parcels(['create', '--from', semicolon], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(results(a).map((l) => l.outcome)).toEqual(['created', 'created']);
    const tab = writeLines(dir, 'export.tsv.csv', ['courier\tcountry\tpostal_code\tnumber', 'A-BIKE\tNL\t1234AB\t3', 'A-BIKE\tNL\t1234AB\t4']);
    const b = await parcels(['create', '--from', tab], { env });
    expect(b.code, b.stderr).toBe(0);
    const created = await allParcels(env);
    expect(numbers(created)).toEqual([1, 2, 3, 4]);
    expect(created.find((p) => p.number === '1')?.addition).toBe('bis; achter');
  });

  it('--delimiter on NDJSON input is refused naming the flag; nothing is sent', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'lines.ndjson', ['{"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"1"}']);
    const r = await parcels(['create', '--from', input, '--delimiter', 'semicolon'], { env });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`Error: --delimiter is for CSV input; ${input} is read as NDJSON\n`);
    expect(await allParcels(env)).toEqual([]);
  });

  it('unknown columns are refused in one message before anything is sent; the hinted --ignore-columns imports', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'wide.csv', ['courier,street,country,postal_code,number,city,recipient', 'A-BIKE,Dorpsstraat,NL,1234AB,1,Utrecht,Jan', 'A-BIKE,Dorpsstraat,NL,1234AB,2,Utrecht,Els']);
    const r = await parcels(['create', '--from', input], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: --from: ${input}: the CSV header names 3 columns that are not a parcel field: "street", "city", "recipient"; nothing was sent (known columns: courier, country, postal_code, number, addition, parcel_length, parcel_width, parcel_height, parcel_weight, time_slot_period_start, time_slot_period_end, service_type)\n` +
        `Hint: rename those columns, or run \`parcels create --from ${input} --ignore-columns street,city,recipient\` to leave them out (or --ignore-unknown-columns for every unknown column)\n`,
    );
    expect(await allParcels(env)).toEqual([]);
    const ignored = await parcels(['create', '--from', input, '--ignore-columns', 'street,city,recipient'], { env });
    expect(ignored.code, ignored.stderr).toBe(0);
    const created = await allParcels(env);
    expect(numbers(created)).toEqual([1, 2]);
    expect(created.every((p) => !('street' in p) && !('city' in p))).toBe(true);
  });

  it('--ignore-unknown-columns leaves out every unknown column', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'wide.csv', ['courier,country,postal_code,number,street', 'A-BIKE,NL,1234AB,7,Dorpsstraat']);
    const r = await parcels(['create', '--from', input, '--ignore-unknown-columns'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(numbers(await allParcels(env))).toEqual([7]);
  });

  it('names, ISO times, "1234 ab" and "nl" import as their flags read them: 1234AB and NL', async () => {
    const { env, dir } = await serve();
    const parcelsFile = writeLines(dir, 'people.csv', ['courier,country,postal_code,number,time_slot_period_start', 'A-BIKE,nl,1234 ab,1,2026-12-01T09:00:00Z', 'A-BIKE,NL,1234AB,2,']);
    const r = await parcels(['create', '--from', parcelsFile], { env });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = results(r).map((l) => l.entry_id as string);
    const created = await allParcels(env);
    expect(created.map((p) => [p.number, p.country, p.postal_code])).toEqual(expect.arrayContaining([['1', 'NL', '1234AB'], ['2', 'NL', '1234AB']]));
    const slot = await parcels(['get', first as string, '--json'], { env });
    expect(JSON.parse(slot.stdout)).toMatchObject({ time_slot_period_start: Date.parse('2026-12-01T09:00:00Z') / 1000 });

    const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const events = writeLines(dir, 'events.csv', ['entry_id,status,occurred_at', `${first},picked_up,${hourAgo}`, `${second},In Transit,${hourAgo}`, `${second},lost,${hourAgo}`]);
    const e = await parcels(['events', 'add', '--from', events], { env });
    expect(e.code).toBe(2);
    expect(results(e).map((l) => [l.line, l.outcome])).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'failed'],
    ]);
    expect((results(e)[2] as { error: unknown }).error).toEqual({
      code: 'invalid_line',
      field: 'status',
      message: 'status must be a code number or one of: 0 registered, 1 picked_up, 2 in_transit, 3 in_delivery (got "lost")',
    });

    const attempts = writeLines(dir, 'attempts.csv', [
      'entry_id,outcome,reason,time_attempt,delivered_country,delivered_postal_code,delivered_number',
      `${first},failed,not_at_home,${hourAgo},,,`,
      `${second},delivered_elsewhere,no_reason,${hourAgo},nl,1234 ab,5`,
    ]);
    const a = await parcels(['attempts', 'add', '--from', attempts], { env });
    expect(a.code, a.stderr).toBe(0);
    const listed = await parcels(['attempts', 'list', second as string, '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ attempts: [{ outcome: 2, reason: 0, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB' } }] });
  });

  it('--id-column: the identity is never sent; a line without one is an invalid line', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'orders.csv', ['order,courier,country,postal_code,number', 'SO-1,A-BIKE,NL,1234AB,1', ',A-BIKE,NL,1234AB,2']);
    const r = await parcels(['create', '--from', input, '--id-column', 'order'], { env });
    expect(r.code).toBe(2);
    expect(results(r).map((l) => [l.line, l.outcome, (l.error as { message?: string } | undefined)?.message])).toEqual([
      [2, 'created', undefined],
      [3, 'failed', 'has no value in its --id-column column "order": each line needs its identity'],
    ]);
    const created = await allParcels(env);
    expect(numbers(created)).toEqual([1]);
    expect('order' in (created[0] as object)).toBe(false);
  });
});
