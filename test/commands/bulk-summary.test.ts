/**
 * A bulk run's summary in-process against a real sandbox: every physical line counted once under its
 * outcome, the counts adding up to the lines read; at a terminal the failed lines listed and the
 * result lines in a file; a double scan in an events file reported, and sent once with --once-per-parcel.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

function file(name: string, text: string): string {
  const path = join(tempConfigDir(), name);
  writeFileSync(path, text);
  return path;
}

/** The head line's counts: `{ read: 9, parts: { created: 3, …, skipped: 4 } }`. */
function counts(stderr: string): { read: number; parts: Record<string, number> } {
  const head = /^[✓!] (\d+) lines read: (.*) in \d+\.\d s/.exec(stderr);
  expect(head, stderr).not.toBeNull();
  const parts: Record<string, number> = {};
  for (const part of (head?.[2] as string).split(/, (?![^(]*\))/)) {
    const [, n, what] = /^(\d+) ([a-z ]+?)(?: \(.*\))?$/.exec(part) ?? [];
    parts[what as string] = Number(n);
  }
  return { read: Number(head?.[1]), parts };
}

describe('the counts add up to the physical lines', () => {
  it('a CSV with a header, blank lines, a record over two lines and an invalid line: each line counted once', async () => {
    const text = [
      'courier,country,postal_code,number,addition',
      '',
      'A-BIKE,NL,1234AB,1,',
      'A-BIKE,NL,1234AB,2,"first',
      'second"',
      'A-BIKE,NL,1234AB',
      '',
      'A-BIKE,NL,1234AB,3,',
      '',
    ].join('\n');
    const path = file('mixed.csv', text);
    const r = await h.cli(['create', '--from', path]);
    // Both failed lines are invalid here (a line break is in no text field's rule): exit 2.
    expect(r.code).toBe(2);
    const physical = text.split('\n').length - 1;
    expect(physical).toBe(8);
    expect(r.stderr.split('\n')[0]).toMatch(/^! 8 lines read: 2 created, 0 already done, 4 skipped \(1 header, 2 blank, 1 continuation\), 2 failed \(2 invalid\) in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)$/);
    const { read, parts } = counts(r.stderr);
    expect(read).toBe(physical);
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(read);
    // The record over lines 4-5 names its span; a line break in `addition` is refused before sending.
    const results = r.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(results.map((result) => [result.line, result.end_line, result.outcome])).toEqual([
      [3, undefined, 'created'],
      [4, 5, 'failed'],
      [6, undefined, 'failed'],
      [8, undefined, 'created'],
    ]);
  });

  it('NDJSON with blank lines: they are counted as skipped', async () => {
    const line = (n: number): string => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(n) });
    const r = await h.cli(['create', '--from', file('blank.ndjson', `${line(1)}\n\n   \n${line(2)}\n`)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^✓ 4 lines read: 2 created, 0 already done, 2 skipped \(2 blank\), 0 failed in /);
  });
});

describe('at a terminal', () => {
  it('the failed lines are listed (the first 10, with line number and reason) and the rest are in the results file', async () => {
    const rows = Array.from({ length: 15 }, (_, i) => (i % 5 === 0 ? `A-BIKE,NL,1234AB,${i + 1}` : `A-BIKE,NL,1234AB`));
    const path = file('bad.csv', ['courier,country,postal_code,number', ...rows, ''].join('\n'));
    const r = await h.cli(['create', '--from', path, '--quiet'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^! 16 lines read: 3 created, 0 already done, 1 skipped \(1 header\), 12 failed \(12 invalid\) in /);
    const bad = [3, 4, 5, 6, 8, 9, 10, 11, 13, 14];
    expect(lines.slice(1, 12)).toEqual(['Failed lines:', ...bad.map((n) => `  line ${n}: has 3 fields where the header has 4`)]);
    const resultsFile = /^Results: (.+\.results\.jsonl)$/.exec(lines[13] ?? '')?.[1];
    expect(lines[12]).toBe(`  and 2 more: see ${resultsFile}`);
    expect(lines[14]).toMatch(/^Hint: run it once those lines are fixed in /);
    const written = readFileSync(resultsFile as string, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { line: number; ok: boolean });
    expect(written).toHaveLength(15);
    expect(written.filter((result) => !result.ok).map((result) => result.line)).toEqual([...bad, 15, 16]);
  });
});

describe('a double scan in an events file', () => {
  async function scans(): Promise<{ ids: string[]; dir: string; path: string }> {
    const dir = tempConfigDir();
    const ids = [await createParcel(h, [], { dir }), await createParcel(h, [], { dir })];
    const lines = [ids[0], ids[1], ids[0], ids[0]].map((id) => JSON.stringify({ entry_id: id, status: 1 }));
    return { ids, dir, path: file('scans.ndjson', `${lines.join('\n')}\n`) };
  }

  async function events(id: string, dir: string): Promise<number> {
    const r = await h.cli(['events', 'list', id, '--json'], { dir });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { events: Array<{ status: number }> }).events.filter((event) => event.status === 1).length;
  }

  it('is reported, and sent again, without --once-per-parcel; the summary names the flag', async () => {
    const { ids, dir, path } = await scans();
    const r = await h.cli(['events', 'add', '--from', path], { dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').slice(1)).toEqual([
      "! 2 lines repeat an earlier line's parcel and status (lines 3, 4): sent again",
      `Hint: next time, \`parcels events add --from ${path} --once-per-parcel\` sends a parcel's status once (a repeat becomes a skipped line)`,
      '',
    ]);
    expect(await events(ids[0] as string, dir)).toBe(3);
  });

  it('with --once-per-parcel: sent once, the repeats are skipped result lines with their reason', async () => {
    const { ids, dir, path } = await scans();
    const r = await h.cli(['events', 'add', '--from', path, '--once-per-parcel'], { dir });
    expect(r.code, r.stderr).toBe(0);
    const results = r.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(results.slice(2)).toEqual([
      { line: 3, ok: true, outcome: 'skipped', entry_id: ids[0], reason: 'repeats line 1: the same parcel and status (--once-per-parcel)' },
      { line: 4, ok: true, outcome: 'skipped', entry_id: ids[0], reason: 'repeats line 1: the same parcel and status (--once-per-parcel)' },
    ]);
    expect(r.stderr).toMatch(/^✓ 4 lines read: 2 created, 0 already done, 2 skipped \(2 repeats\), 0 failed in .*\n! 2 lines repeat an earlier line's parcel and status \(lines 3, 4\): each sent once, the repeats skipped\n$/);
    expect(await events(ids[0] as string, dir)).toBe(1);
  });

  it('an invalid line is no first: the valid line after it with the same parcel and status is sent, not skipped', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    const ahead = Math.floor(Date.now() / 1000) + 3600;
    const path = file('late.ndjson', `${JSON.stringify({ entry_id: id, status: 1, occurred_at: ahead })}\n${JSON.stringify({ entry_id: id, status: 1 })}\n`);
    const r = await h.cli(['events', 'add', '--from', path, '--once-per-parcel'], { dir });
    expect(r.code).toBe(2);
    const results = r.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { line: number; outcome: string });
    expect(results.map((result) => [result.line, result.outcome])).toEqual([
      [1, 'failed'],
      [2, 'created'],
    ]);
    expect(r.stderr).toMatch(/^! 2 lines read: 1 created, 0 already done, 1 failed \(1 invalid\) in .*\nHint: /);
    expect(await events(id, dir)).toBe(1);
  });

  it('--once-per-parcel without --from: exit 2 naming it, nothing sent', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    const r = await h.cli(['events', 'add', id, '--status', '1', '--once-per-parcel'], { dir });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^Error: --once-per-parcel needs --from FILE\|-\n/);
    expect(await events(id, dir)).toBe(0);
  });
});
