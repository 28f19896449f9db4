/**
 * Bulk runs and the outbox on a real terminal: the built CLI on a pty against `parcels sandbox
 * serve`, read through a terminal emulator (test/helpers/pty.ts). Issue 19: at a terminal every bulk
 * run crashed in the built CLI (`SingleBar is not a constructor`), which tests of the sources missed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UUID, bulkHelpers } from '../helpers/bulk.js';
import { hasPty, runCli, startCli } from '../helpers/pty.js';

const { serve, parcels, allParcels } = bulkHelpers();

/** A CSV of `count` parcels (lines 2 to count + 1), its path. */
function csvFile(dir: string, count: number): string {
  const path = join(dir, 'parcels.csv');
  const rows = Array.from({ length: count }, (_, i) => `A-BIKE,NL,1234AB,${i + 1}`);
  writeFileSync(path, ['courier,country,postal_code,number', ...rows, ''].join('\n'));
  return path;
}

/** The NDJSON result lines among the lines of a screen. */
function results(lines: string[]): Array<{ line: number; ok: boolean; entry_id?: string }> {
  return lines.filter((l) => l.startsWith('{"line":')).map((l) => JSON.parse(l) as { line: number; ok: boolean; entry_id?: string });
}

const BAR = /^\[[=-]{30}\] \d+\/\d+ lines \| \d+\/s/;

describe.skipIf(!hasPty)('bulk runs on a terminal', () => {
  it('create --from file.csv: the bar is drawn and moves, then is cleared; the results and the summary stay; every line is created', async () => {
    const { env, dir } = await serve();
    const file = csvFile(dir, 120);
    const run = startCli(['create', '--from', file, '--rate', '40/s'], { env, columns: 100, rows: 24 });
    expect((await run.waitFor(BAR)).find((l) => BAR.test(l))).toMatch(/^\[-{30}\] 0\/120 lines \| 0\/s$/);
    // Moving, with an ETA, and always on the last line written (results scroll above it).
    const moving = await run.waitFor(/^\[=+-*\] [1-9]\d*\/120 lines \| \d+\/s \| ETA \d+[smhd]$/);
    const drawn = moving.filter((l) => l !== '');
    expect(drawn[drawn.length - 1]).toMatch(BAR);
    expect(drawn.slice(0, -1).every((l) => l.startsWith('{"line":'))).toBe(true);

    expect(await run.exited).toBe(0);
    const lines = run.lines();
    expect(lines.filter((l) => l.includes('lines |'))).toEqual([]);
    expect(lines).toHaveLength(121);
    const shown = results(lines);
    expect(shown.map((r) => [r.line, r.ok, UUID.test(r.entry_id ?? '')])).toEqual(Array.from({ length: 120 }, (_, i) => [i + 2, true, true]));
    expect(lines[120]).toMatch(/^✓ 120 created, 0 already done, 0 failed in \d+\.\d s, \d+ lines\/s/);
    expect((await allParcels(env)).map((p) => p.entry_id).sort()).toEqual(shown.map((r) => r.entry_id).sort());
  });

  it('Ctrl-C mid-run: exit 130, the bar cleared, the summary says it was interrupted; nothing is lost: the same command finishes exactly the rest', async () => {
    const { env, dir } = await serve();
    const file = csvFile(dir, 200);
    const run = startCli(['create', '--from', file, '--rate', '20/s'], { env, columns: 100, rows: 24 });
    await run.waitFor(/^\[=*-*\] (?:[5-9]|\d{2,})\/200 lines/);
    run.press('ctrl-c');
    expect(await run.exited).toBe(130);
    const lines = run.lines();
    expect(lines.filter((l) => l.includes('lines |'))).toEqual([]);
    const summary = /^Interrupted: (\d+) created, 0 already done/.exec(lines[lines.length - 1] ?? '');
    expect(summary, lines.join('\n')).not.toBeNull();
    const created = results(lines).filter((r) => r.ok);
    expect(created.length).toBe(Number(summary?.[1]));
    expect(created.length).toBeGreaterThanOrEqual(5);
    expect(created.length).toBeLessThan(200);

    const rerun = await parcels(['create', '--from', file], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const all = (await allParcels(env)).map((p) => p.entry_id as string);
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    for (const r of created) expect(all).toContain(r.entry_id);
  });
});

const CREATE = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '7'];

describe.skipIf(!hasPty)('the outbox on a terminal', () => {
  it('outbox flush sends each queued request once and says none is left', async () => {
    const { env } = await serve();
    const created = await parcels([...CREATE, '--quiet'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect((await parcels(['events', 'add', id, '--status', 'in_transit', '--offline'], { env })).code).toBe(75);
    expect((await parcels([...CREATE, '--offline'], { env })).code).toBe(75);

    const flush = await runCli(['outbox', 'flush'], { env });
    expect(flush.code).toBe(0);
    // On a terminal (issue 20): a line per entry saying what it was, and a summary counting by kind.
    expect(flush.lines).toHaveLength(3);
    expect(flush.lines[0]).toBe(`✓ #1 events add ${id} status 2 in_transit: sent`);
    expect(flush.lines[1]).toMatch(/^✓ #2 create A-BIKE 1234AB 7: sent, parcel [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(flush.lines[2]).toMatch(/^✓ Outbox: sent 2 \(1 status event, 1 parcel created\), 0 still waiting in \d+\.\d s$/);

    const left = await parcels(['outbox', '-o', 'json'], { env });
    expect(left.stdout).toBe('[]\n');
    expect((await allParcels(env)).map((p) => [p.entry_id === id, p.status])).toContainEqual([true, 2]);
    expect(await allParcels(env)).toHaveLength(2);
  });
});
