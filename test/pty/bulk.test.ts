/**
 * Bulk runs and the outbox on a real terminal: the built CLI on a pty against `parcels sandbox
 * serve`, read through a terminal emulator (test/helpers/pty.ts). Issue 19: at a terminal every bulk
 * run crashed in the built CLI (`SingleBar is not a constructor`), which tests of the sources missed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

/** The result lines a run at a terminal wrote to its results file (named on the screen's `Results:` line). */
function resultsFile(lines: string[]): Array<{ line: number; ok: boolean; outcome: string; entry_id?: string }> {
  const path = lines.map((l) => /^Results: (.+\.results\.jsonl)$/.exec(l)?.[1]).find((p) => p !== undefined);
  expect(path, lines.join('\n')).toBeDefined();
  return readFileSync(path as string, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { line: number; ok: boolean; outcome: string; entry_id?: string });
}

const BAR = /^\[[=-]{30}\] \d+\/\d+ lines \| \d+\/s/;

describe.skipIf(!hasPty)('bulk runs on a terminal', () => {
  it('create --from file.csv: the bar is drawn and moves, then is cleared; no result line scrolls past: they are in the results file, the summary counts every line', async () => {
    const { env, dir } = await serve();
    const file = csvFile(dir, 120);
    const run = startCli(['create', '--from', file, '--rate', '40/s'], { env, columns: 100, rows: 24 });
    expect((await run.waitFor(BAR)).find((l) => BAR.test(l))).toMatch(/^\[-{30}\] 0\/120 lines \| 0\/s$/);
    // Moving, with an ETA, and the only line on the screen.
    const moving = await run.waitFor(/^\[=+-*\] [1-9]\d*\/120 lines \| \d+\/s \| ETA \d+[smhd]$/);
    expect(moving.filter((l) => l !== '')).toHaveLength(1);

    expect(await run.exited).toBe(0);
    const lines = run.lines();
    expect(lines.filter((l) => l.includes('lines |'))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^✓ 121 lines read: 120 created, 0 already done, 1 skipped \(1 header\), 0 failed in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)$/);
    expect(lines[1]).toMatch(/^Results: \S+\.results\.jsonl$/);
    const shown = resultsFile(lines);
    expect(shown.map((r) => [r.line, r.ok, r.outcome, UUID.test(r.entry_id ?? '')])).toEqual(Array.from({ length: 120 }, (_, i) => [i + 2, true, 'created', true]));
    expect((await allParcels(env)).map((p) => p.entry_id).sort()).toEqual(shown.map((r) => r.entry_id).sort());
  });

  it('the failed lines are listed on the screen with their line numbers and reasons, the first 10, then where the rest are', async () => {
    const { env, dir } = await serve();
    const path = join(dir, 'bad.csv');
    const rows = Array.from({ length: 15 }, (_, i) => (i % 5 === 0 ? `A-BIKE,NL,1234AB,${i + 1}` : 'A-BIKE,NL,1234AB'));
    writeFileSync(path, ['courier,country,postal_code,number', ...rows, ''].join('\n'));
    const run = startCli(['create', '--from', path], { env, columns: 200, rows: 30 });
    expect(await run.exited).toBe(2);
    const lines = run.lines();
    const file = resultsFile(lines);
    expect(file).toHaveLength(15);
    const resultsPath = /^Results: (.+)$/.exec(lines[13] ?? '')?.[1] as string;
    expect(lines[0]).toMatch(/^! 16 lines read: 3 created, 0 already done, 1 skipped \(1 header\), 12 failed \(12 invalid\) in /);
    expect(lines.slice(1, 13)).toEqual([
      'Failed lines:',
      ...[3, 4, 5, 6, 8, 9, 10, 11, 13, 14].map((n) => `  line ${n}: has 3 fields where the header has 4`),
      `  and 2 more: see ${resultsPath}`,
    ]);
    expect(lines[14]).toBe(`Hint: run it once those lines are fixed in ${path}: \`parcels create --from ${path} --continue\` (it sends the fixed lines and replays the others)`);
    expect(lines).toHaveLength(15);
  });

  it('Ctrl-C mid-run: exit 130, the bar cleared; the summary says what was done and not sent, and the resume command, which finishes exactly the rest', async () => {
    const { env, dir } = await serve();
    const file = csvFile(dir, 200);
    const run = startCli(['create', '--from', file, '--rate', '20/s'], { env, columns: 200, rows: 24 });
    await run.waitFor(/^\[=*-*\] (?:[5-9]|\d{2,})\/200 lines/);
    run.press('ctrl-c');
    expect(await run.exited).toBe(130);
    const lines = run.lines();
    expect(lines.filter((l) => l.includes('lines |'))).toEqual([]);
    const created = resultsFile(lines).filter((r) => r.ok);
    const n = created.length;
    expect(n).toBeGreaterThanOrEqual(5);
    expect(n).toBeLessThan(200);
    expect(lines[0]).toMatch(new RegExp(`^Interrupted after ${n + 1} of 201 lines: ${n} created, 0 already done, 1 skipped \\(1 header\\), 0 failed, ${200 - n} not sent in `));
    expect(lines[1]).toMatch(/^Results: /);
    const hint = `Hint: run \`parcels create --from ${file} --rate 20/s\` to send the ${200 - n} lines not yet sent (the ${n + 1} done are not sent again)`;
    expect(lines[2]).toBe(hint);

    const rerun = await parcels(['create', '--from', file, '--rate', '20/s'], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(new RegExp(`^✓ 201 lines read: ${200 - n} created, ${n} already done, 1 skipped \\(1 header\\), 0 failed in `));
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
    expect(flush.lines[0]).toBe(`✓ #1 events add ${id} status in_transit: sent`);
    expect(flush.lines[1]).toMatch(/^✓ #2 create A-BIKE 1234AB 7: sent, parcel [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(flush.lines[2]).toMatch(/^✓ Outbox: 2 entries: 2 created \(1 status event, 1 parcel\), 0 failed; 0 still waiting in \d+\.\d s$/);

    const left = await parcels(['outbox', '-o', 'json'], { env });
    expect(left.stdout).toBe('[]\n');
    expect((await allParcels(env)).map((p) => [p.entry_id === id, p.status])).toContainEqual([true, 2]);
    expect(await allParcels(env)).toHaveLength(2);
  });
});
