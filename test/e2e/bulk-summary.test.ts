/**
 * End-to-end summaries: the built `parcels` binary against `parcels sandbox serve`, counting on the
 * service. Every physical line is counted once and the counts add up to the lines read; a double
 * scan in an events file is reported, and sent once with --once-per-parcel.
 */
import { describe, expect, it } from 'vitest';
import { bulkHelpers, UUID } from '../helpers/bulk.js';

const { parcels, serve, writeLines, results, allParcels } = bulkHelpers();

describe('a bulk run accounts for every line', () => {
  it('a CSV with a header, blank lines, a quoted cell over two lines and an invalid line: the counts add up to the physical lines', async () => {
    const { env, dir } = await serve();
    const lines = [
      'courier,country,postal_code,number,addition',
      '',
      'A-BIKE,NL,1234AB,1,',
      'A-BIKE,NL,1234AB,2,"first',
      'second"',
      'A-BIKE,NL,1234AB',
      '',
      '',
      'A-BIKE,NL,1234AB,3,',
      'A-BIKE,NL,1234AB,4,B',
    ];
    const input = writeLines(dir, 'mixed.csv', lines);
    const r = await parcels(['create', '--from', input], { env });
    // The cell over two lines holds a line break, which no text field takes: invalid here (exit 2).
    expect(r.code).toBe(2);
    const head = r.stderr.split('\n')[0] as string;
    expect(head).toMatch(/^! 10 lines read: 3 created, 0 already done, 5 skipped \(1 header, 3 blank, 1 continuation\), 2 failed \(2 invalid\) in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)$/);
    // Each count once (the reasons in brackets are its parts).
    const counted = [...(/: (.*) in /.exec(head)?.[1] ?? '').replace(/ \([^)]*\)/g, '').matchAll(/(\d+) [a-z]/g)].map((m) => Number(m[1]));
    expect(counted).toEqual([3, 0, 5, 2]);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(lines.length);
    expect(results(r).map((l) => [l.line, l.end_line ?? null, l.outcome])).toEqual([
      [3, null, 'created'],
      [4, 5, 'failed'],
      [6, null, 'failed'],
      [9, null, 'created'],
      [10, null, 'created'],
    ]);
    expect((await allParcels(env)).map((p) => p.number).sort()).toEqual(['1', '3', '4']);
  });
});

describe('a double scan in an events file', () => {
  async function eventsOf(id: string, env: NodeJS.ProcessEnv): Promise<number[]> {
    const r = await parcels(['events', 'list', id, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { events: Array<{ status: number }> }).events.map((e) => e.status);
  }

  it('is reported either way; with --once-per-parcel each parcel gets its status once', async () => {
    const { env, dir } = await serve();
    const ids: string[] = [];
    for (const number of ['1', '2']) {
      const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', number, '--quiet'], { env });
      expect(created.stdout.trim()).toMatch(UUID);
      ids.push(created.stdout.trim());
    }
    const [a = '', b = ''] = ids;
    const twice = writeLines(dir, 'twice.txt', [a, b, a]);
    const sent = await parcels(['events', 'add', '--from', twice, '--status', 'picked_up'], { env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr.split('\n').slice(1)).toEqual([
      "! 1 line repeats an earlier line's parcel and status (line 3): sent again",
      `Hint: next time, \`parcels events add --from ${twice} --status picked_up --once-per-parcel\` sends a parcel's status once (a repeat becomes a skipped line)`,
      '',
    ]);
    expect((await eventsOf(a, env)).filter((s) => s === 1)).toHaveLength(2);

    const scans = writeLines(dir, 'scans.txt', [b, a, b, b]);
    const once = await parcels(['events', 'add', '--from', scans, '--status', 'in_transit', '--once-per-parcel'], { env });
    expect(once.code, once.stderr).toBe(0);
    expect(results(once)).toEqual([
      { line: 1, ok: true, outcome: 'created', entry_id: b },
      { line: 2, ok: true, outcome: 'created', entry_id: a },
      { line: 3, ok: true, outcome: 'skipped', entry_id: b, reason: 'repeats line 1: the same parcel and status (--once-per-parcel)' },
      { line: 4, ok: true, outcome: 'skipped', entry_id: b, reason: 'repeats line 1: the same parcel and status (--once-per-parcel)' },
    ]);
    expect(once.stderr).toMatch(/^✓ 4 lines read: 2 created, 0 already done, 2 skipped \(2 repeats\), 0 failed in .*\n! 2 lines repeat an earlier line's parcel and status \(lines 3, 4\): each sent once, the repeats skipped\n$/);
    expect((await eventsOf(b, env)).filter((s) => s === 2)).toHaveLength(1);
    expect((await eventsOf(a, env)).filter((s) => s === 2)).toHaveLength(1);
  });
});
