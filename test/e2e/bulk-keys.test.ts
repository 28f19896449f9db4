/**
 * Issue 19, "bulk you can fix and run again": the built binary against `parcels sandbox serve`.
 * Keys come from the request a line builds, so fixing, appending and re-saving a file never
 * creates a parcel twice; a batch is the file's path (or stdin's content / --batch-id); journals
 * and outbox entries of the released version keep working. One sandbox per scenario: counts are exact.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { targetId } from '../../src/config/target.js';
import { bulkHelpers } from '../helpers/bulk.js';
import { FULL_KEY } from '../helpers/seed.js';
import { hintedCommands } from '../helpers/terminal.js';

const { parcels, serve, parcelLine, writeLines, results, allParcels } = bulkHelpers();

const HEADER = 'courier,country,postal_code,number';
/** Row i of a CSV of parcels; a bad one has no postal code. */
const row = (i: number, bad = false): string => `A-BIKE,NL,${bad ? '' : '1234AB'},${i}`;
const twenty = (bad: readonly number[]): string[] => [HEADER, ...Array.from({ length: 20 }, (_, i) => row(i + 1, bad.includes(i + 1)))];

/** The one command a summary's hint names, as words. */
function hinted(stderr: string): string[] {
  const commands = hintedCommands(stderr);
  expect(commands).toHaveLength(1);
  return commands[0] as string[];
}

const numbers = (stored: Array<Record<string, unknown>>): string[] => stored.map((p) => p.number as string).sort((a, b) => Number(a) - Number(b));

describe('fix and run again', () => {
  it('20 lines, 2 bad: 18 created; the printed command, run after fixing them in place, creates exactly the 2 (20 of 20)', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'depot.csv', twenty([7, 15]));
    const first = await parcels(['create', '--from', input], { env });
    expect(first.code).toBe(2);
    expect(results(first).filter((r) => r.ok === true)).toHaveLength(18);
    expect(first.stderr).toMatch(/^! 21 lines read: 18 created, 0 already done, 1 skipped \(1 header\), 2 failed \(2 invalid\) in .* \(batch [0-9a-f]{16}\)\n/);
    const command = hinted(first.stderr);
    expect(command).toEqual(['create', '--from', input, '--continue']);

    // A plain re-run of the edited file refuses and sends nothing, naming both ways on.
    writeLines(dir, 'depot.csv', twenty([]));
    const plain = await parcels(['create', '--from', input], { env });
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/changed since batch [0-9a-f]{16} last ran \([^)]+\): 18 of 20 lines match it; nothing was sent\n/);
    // As a new batch its 18 lines created before would be met again (issue 27): that hint skips them.
    expect(hintedCommands(plain.stderr)).toEqual([
      ['create', '--from', input, '--continue'],
      ['create', '--from', input, '--new-batch', '--skip-created'],
    ]);
    expect(plain.stderr).toContain('imports it as a new batch and skips the 18 lines that batches on this target created');
    expect(await allParcels(env)).toHaveLength(18);

    const fixed = await parcels(command, { env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(results(fixed).filter((r) => r.outcome !== 'already_done').map((r) => r.line)).toEqual([8, 16]);
    expect(fixed.stderr).toMatch(/^✓ 21 lines read: 2 created, 18 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(numbers(await allParcels(env))).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));

    // Unchanged now: the same command replays everything, exit 0.
    const again = await parcels(['create', '--from', input], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^✓ 21 lines read: 0 created, 20 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(await allParcels(env)).toHaveLength(20);
  });

  it('appended lines are created alone; a line inserted at the top shifts no key', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'daily.csv', [HEADER, row(1), row(2), row(3)]);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    writeLines(dir, 'daily.csv', [HEADER, row(0), row(1), row(2), row(3), row(4), row(5)]);
    const appended = await parcels(['create', '--from', input, '--continue'], { env });
    expect(appended.code, appended.stderr).toBe(0);
    expect(results(appended).map((r) => [r.line, r.outcome === 'already_done'])).toEqual([
      [2, false],
      [3, true],
      [4, true],
      [5, true],
      [6, false],
      [7, false],
    ]);
    expect(numbers(await allParcels(env))).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('a CSV re-saved with CRLF, a byte-order mark, other quoting and reordered columns replays (exit 0, nothing sent)', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'export.csv', [HEADER, row(1), row(2), row(2)]);
    const first = await parcels(['create', '--from', input], { env });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(input, '\uFEFF"number","postal_code","courier","country"\r\n"1","1234AB","A-BIKE","NL"\r\n2,1234AB,A-BIKE,NL\r\n"2",1234AB,"A-BIKE",NL\r\n');
    const resaved = await parcels(['create', '--from', input], { env });
    expect(resaved.code, resaved.stderr).toBe(0);
    expect(results(resaved)).toEqual(results(first).map((r) => ({ ...r, outcome: 'already_done' })));
    // Two identical lines stay two parcels.
    expect(numbers(await allParcels(env))).toEqual(['1', '2', '2']);
  });
});

describe('the batch', () => {
  it('the same ids file with two different --status values sends both', async () => {
    const { env, dir } = await serve();
    const [id] = results(await parcels(['create', '--from', writeLines(dir, 'one.ndjson', [parcelLine(1)])], { env })).map((r) => r.entry_id as string);
    const ids = writeLines(dir, 'ids.txt', [id as string]);
    const pickedUp = await parcels(['events', 'add', '--from', ids, '--status', 'picked_up'], { env });
    expect(pickedUp.code, pickedUp.stderr).toBe(0);
    const inTransit = await parcels(['events', 'add', '--from', ids, '--status', 'in_transit'], { env });
    expect(inTransit.code, inTransit.stderr).toBe(0);
    expect(results(inTransit)).toEqual([{ line: 1, ok: true, outcome: 'created', entry_id: id }]);
    // The first again is a replay, with --at now defaulted or typed.
    expect(results(await parcels(['events', 'add', '--from', ids, '--status', 'picked_up', '--at', 'now'], { env }))).toEqual([{ line: 1, ok: true, outcome: 'already_done', entry_id: id }]);
    const events = JSON.parse((await parcels(['events', 'list', id as string, '--json'], { env })).stdout) as { events: Array<{ status: number }> };
    expect(events.events.map((e) => e.status).sort()).toEqual([1, 2]);
  });

  it('another file with the same lines is another batch: refused as a copy (issue 27), new parcels with --create-again', async () => {
    const { env, dir } = await serve();
    const lines = [parcelLine(1), parcelLine(2)];
    expect((await parcels(['create', '--from', writeLines(dir, 'monday.ndjson', lines)], { env })).code).toBe(0);
    const copy = writeLines(dir, 'tuesday.ndjson', lines);
    expect((await parcels(['create', '--from', copy], { env })).code).toBe(2);
    const tuesday = await parcels(['create', '--from', copy, '--create-again'], { env });
    expect(tuesday.stderr).toMatch(/^✓ 2 lines read: 2 created, 0 already done, 0 failed in /);
    expect(await allParcels(env)).toHaveLength(4);
  });

  it("one path overwritten with tomorrow's export: --new-batch --create-again creates every line (identical ones too) and its hint names the batch in full", async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'export.csv', [HEADER, row(1), row(2)]);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    writeLines(dir, 'export.csv', [HEADER, row(1), row(3, true), row(4)]);
    // Line 2 matches what yesterday's batch created (issue 27): created again only when asked.
    const tomorrow = await parcels(['create', '--from', input, '--new-batch', '--create-again'], { env });
    expect(tomorrow.code).toBe(2);
    expect(results(tomorrow).map((r) => [r.line, r.ok, r.outcome === 'already_done'])).toEqual([
      [2, true, false],
      [3, false, false],
      [4, true, false],
    ]);
    const batch = /\(batch ([0-9a-f]{16})\)/.exec(tomorrow.stderr)?.[1] as string;
    const command = hinted(tomorrow.stderr);
    expect(command).toEqual(['create', '--from', input, '--create-again', '--batch-id', batch, '--continue']);
    writeLines(dir, 'export.csv', [HEADER, row(1), row(3), row(4)]);
    const fixed = await parcels(command, { env });
    expect(fixed.stderr).toMatch(/^✓ 4 lines read: 1 created, 2 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(numbers(await allParcels(env))).toEqual(['1', '1', '2', '3', '4']);
  });

  it('standard input with --batch-id follows the same loop; without one, the hint names its batch', async () => {
    const { env } = await serve();
    const bad = `${parcelLine(1)}\n{"courier":"A-BIKE","country":"NL","number":"2"}\n${parcelLine(3)}\n`;
    const good = `${parcelLine(1)}\n${parcelLine(2)}\n${parcelLine(3)}\n`;
    const first = await parcels(['create', '--from', '-', '--batch-id', 'depot-7'], { env, input: bad });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/\(batch depot-7\)\n/);
    expect(hinted(first.stderr)).toEqual(['create', '--from', '-', '--batch-id', 'depot-7', '--continue']);
    const refused = await parcels(['create', '--from', '-', '--batch-id', 'depot-7'], { env, input: good });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/standard input changed since batch depot-7 last ran \([^)]+\): 2 of 3 lines match it; nothing was sent/);
    const fixed = await parcels(hinted(first.stderr), { env, input: good });
    expect(fixed.stderr).toMatch(/^✓ 3 lines read: 1 created, 2 already done, 0 failed in /);

    const unnamed = await parcels(['create', '--from', '-'], { env, input: bad.replace(/"number":"(\d)"/g, '"number":"1$1"') });
    expect(unnamed.code).toBe(2);
    const batch = /\(batch (stdin-[0-9a-f]{16})\)/.exec(unnamed.stderr)?.[1] as string;
    const command = hinted(unnamed.stderr);
    expect(command).toEqual(['create', '--from', '-', '--batch-id', batch, '--continue']);
    const unnamedFixed = await parcels(command, { env, input: good.replace(/"number":"(\d)"/g, '"number":"1$1"') });
    expect(unnamedFixed.stderr).toMatch(/^✓ 3 lines read: 1 created, 2 already done, 0 failed in /);
    expect(numbers(await allParcels(env))).toEqual(['1', '2', '3', '11', '12', '13']);
  });
});

describe('journals of the released version', () => {
  const FIXTURES = 'test/fixtures/legacy-journals';
  const IDS = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];

  /** Puts a fixture journal where the released version kept it for this sandbox's target. */
  function plant(dir: string, url: string, journal: string, batch: string, extra: string[] = []): string {
    const path = journalPath(dir, `default ${targetId({ baseUrl: url })}`, batch);
    mkdirSync(join(path, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, journal), path);
    for (const file of extra) copyFileSync(join(FIXTURES, file), join(path, '..', file));
    return path;
  }

  const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

  it('an interrupted batch resumes: confirmed lines replayed, the uncertain one resent under its old key (no duplicate), the rest created', async () => {
    const { env, dir, url } = await serve();
    const input = join(dir, 'interrupted.ndjson');
    copyFileSync(join(FIXTURES, 'interrupted.ndjson'), input);
    const old = plant(dir, url, 'interrupted.journal.ndjson', `create-${sha256(input)}`);
    // Line 4 reached the service before the old run was killed: its key is in the fixture.
    const line4 = readFileSync(input, 'utf8').split('\n')[3] as string;
    const key4 = (JSON.parse(readFileSync(old, 'utf8').split('\n')[4] as string) as { key: string }).key;
    const sent = await fetch(`${url}/deliveries/v1/parcels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FULL_KEY}`, 'idempotency-key': key4, 'content-type': 'application/json' },
      body: line4,
    });
    expect(sent.status).toBe(201);
    const appliedId = ((await sent.json()) as { data: { entry_id: string } }).data.entry_id;

    const resumed = await parcels(['create', '--from', input], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = results(resumed);
    expect(lines.slice(0, 3)).toEqual(IDS.map((id, i) => ({ line: i + 1, ok: true, outcome: 'already_done', entry_id: id })));
    // Resent under its old key: the service answers with what that key had created.
    expect(lines[3]).toEqual({ line: 4, ok: true, outcome: 'replayed', entry_id: appliedId });
    expect(lines.slice(4).map((r) => [r.line, r.ok, r.outcome])).toEqual([
      [5, true, 'created'],
      [6, true, 'created'],
    ]);
    expect(numbers(await allParcels(env))).toEqual(['4', '5', '6']);
    // Its journal was taken over and removed; the next run replays all six from the new one.
    expect(readdirSync(join(old, '..')).filter((f) => f.startsWith('create-'))).toEqual([]);
    const again = await parcels(['create', '--from', input], { env });
    expect(again.stderr).toMatch(/^✓ \d+ lines read: 0 created, 6 already done, 0 failed in /);
  });

  it('a finished batch in its compact form (a done file of version 1) replays every line', async () => {
    const { env, dir, url } = await serve();
    const input = join(dir, 'finished.ndjson');
    copyFileSync(join(FIXTURES, 'finished.ndjson'), input);
    const done = readdirSync(FIXTURES).find((f) => f.endsWith('.done')) as string;
    plant(dir, url, 'finished.journal.ndjson', `create-${sha256(input)}`, [done]);
    const rerun = await parcels(['create', '--from', input], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(results(rerun)).toEqual(IDS.map((id, i) => ({ line: i + 1, ok: true, outcome: 'already_done', entry_id: id })));
    expect(await allParcels(env)).toHaveLength(0);
  });

  it('an outbox of the released version stays queued for its target and flushes once', async () => {
    const { env, dir, url } = await serve();
    plant(dir, url, 'outbox.journal.ndjson', 'outbox');
    const listed = await parcels(['outbox', '-o', 'json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((e) => [e.command, e.state])).toEqual([
      ['create', 'waiting'],
      ['create', 'waiting'],
    ]);
    const flushed = await parcels(['outbox', 'flush'], { env });
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(numbers(await allParcels(env))).toEqual(['10', '11']);
    expect((await parcels(['outbox', 'flush'], { env })).code).toBe(0);
    expect(await allParcels(env)).toHaveLength(2);
  });
});
