/**
 * End-to-end bulk runs: the built `parcels` binary, spawned, against `parcels sandbox serve` (also
 * spawned) over real HTTP. Each scenario gets its own sandbox so parcel counts are exact. The
 * 2,000-line import under injected faults is in bulk-faults.test.ts (its own file: it runs long).
 */
import { readFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../helpers/seed.js';
import { bulkHelpers } from '../helpers/bulk.js';
import { shellWords } from '../helpers/hint-replay.js';

const { parcels, serve, parcelLine, writeLines, results, allParcels, startRun } = bulkHelpers();

describe('bulk create --from', () => {
  it('killed with SIGKILL mid-run, then run again: exactly the right count', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'kill.ndjson', Array.from({ length: 1500 }, (_, i) => parcelLine(i + 1)));
    const run = startRun(['create', '--from', input, '--concurrency', '4', '--rate', '500/s'], env, 100);
    await run.reached;
    run.child.kill('SIGKILL');
    const killed = await run.exited;
    expect(killed.code).toBe(137);

    const again = await parcels(['create', '--from', input], { env });
    expect(again.code, again.stderr).toBe(0);
    const lines = results(again);
    expect(lines).toHaveLength(1500);
    const replayed = lines.filter((r) => r.outcome === 'already_done').length;
    expect(replayed).toBeGreaterThanOrEqual(100);
    const resent = lines.filter((r) => r.outcome === 'replayed').length;
    const replayedNote = resent > 0 ? `, ${resent} replayed by the service` : '';
    expect(again.stderr).toContain(`${1500 - replayed - resent} created${replayedNote}, ${replayed} already done, 0 failed`);
    expect(await allParcels(env)).toHaveLength(1500);
  });

  it('two runs of one batch at once: the second refuses (exit 5); Ctrl-C stops the first (130) and the next run resumes', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'lock.ndjson', Array.from({ length: 300 }, (_, i) => parcelLine(i + 1)));
    const first = startRun(['create', '--from', input, '--rate', '50/s'], env, 5);
    await first.reached;
    const second = await parcels(['create', '--from', input], { env });
    expect(second.code).toBe(5);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(/another run \(pid \d+\) is using this batch; wait for it to finish/);

    first.child.kill('SIGINT');
    const stopped = await first.exited;
    expect(stopped.code).toBe(130);
    // What was done, what was not sent (lines without an answer, resent with the same key by the next run, and lines never reached), and the command that resumes.
    const done = results(stopped).filter((r) => r.ok === true).length;
    expect(done).toBeLessThan(300);
    const [head = '', hint = ''] = stopped.stderr.split('\n');
    expect(head).toMatch(new RegExp(`^Interrupted after ${done} of 300 lines: ${done} created, 0 already done, 0 failed, ${300 - done} not sent in \\d+\\.\\d s, \\d+ lines/s \\(batch [0-9a-f]{16}\\)$`));
    expect(hint).toBe(`Hint: run \`parcels create --from ${input} --rate 50/s\` to send the ${300 - done} lines not yet sent (the ${done} done are not sent again)`);

    // The resume command, run as printed: the rest once each, no duplicate.
    const resumed = await parcels(shellWords(/`parcels ([^`]+)`/.exec(hint)?.[1] ?? ''), { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(results(resumed).filter((r) => r.outcome === 'already_done')).toHaveLength(done);
    expect(resumed.stderr).toMatch(new RegExp(`^✓ 300 lines read: ${300 - done} created, ${done} already done, 0 failed in `));
    expect(await allParcels(env)).toHaveLength(300);
  });

  it('reports exactly the bad lines by number (the field and the rule); the rest go on; exit 2', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'bad.ndjson', [parcelLine(1), '{"courier":"A-BIKE","country":"NL","postal_code":"1234AB"}', parcelLine(3), '{not json', '', parcelLine(6)]);
    const r = await parcels(['create', '--from', input], { env });
    expect(r.code).toBe(2);
    const lines = results(r);
    expect(lines.map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
      [6, true],
    ]);
    expect(lines[1]?.error).toEqual({ code: 'invalid_line', field: 'number', message: expect.stringMatching(/^number /) });
    expect(lines[3]?.error).toEqual({ code: 'invalid_line', message: expect.stringMatching(/^is not valid JSON/) });
    expect(r.stderr).toMatch(/^! 6 lines read: 3 created, 0 already done, 1 skipped \(1 blank\), 2 failed \(2 invalid\) in .*\n/);
    expect(r.stderr.split('\n')[1]).toBe(`Hint: run it once those lines are fixed in ${input}: \`parcels create --from ${input} --continue\` (it sends the fixed lines and replays the others)`);
    expect(await allParcels(env)).toHaveLength(3);
  });

  it('reads CSV (header = API field names) and NDJSON from standard input', async () => {
    const { env, dir } = await serve();
    const csv = writeLines(dir, 'parcels.csv', ['courier,country,postal_code,number,parcel_weight', 'A-BIKE,NL,1234AB,1,1200', 'A-VAN,NL,1011AB,"2",']);
    const fromCsv = await parcels(['create', '--from', csv], { env });
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    expect(results(fromCsv).map((r) => [r.line, r.ok])).toEqual([
      [2, true],
      [3, true],
    ]);
    const fromStdin = await parcels(['create', '--from', '-'], { env, input: `${parcelLine(10)}\n${parcelLine(11)}\n` });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(results(fromStdin).map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, true],
    ]);
    const stored = await allParcels(env);
    expect(stored.map((p) => [p.courier, p.number, p.parcel_weight ?? null]).sort()).toEqual([
      ['A-BIKE', '1', 1200],
      ['A-BIKE', '10', null],
      ['A-BIKE', '11', null],
      ['A-VAN', '2', null],
    ]);
    // The same standard input again is the same batch: nothing is sent twice.
    const again = await parcels(['create', '--from', '-'], { env, input: `${parcelLine(10)}\n${parcelLine(11)}\n` });
    expect(results(again).every((r) => r.outcome === 'already_done')).toBe(true);
    expect(await allParcels(env)).toHaveLength(4);
  });

  it('a 429-limited sandbox slows the run but fails no line', async () => {
    const { env, dir } = await serve({ ...TEST_SEED, rate_limit: { requests: 20, window_s: 2 } });
    const input = writeLines(dir, 'limited.ndjson', Array.from({ length: 50 }, (_, i) => parcelLine(i + 1)));
    const r = await parcels(['create', '--from', input, '--concurrency', '16'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(results(r).every((l) => l.ok === true)).toBe(true);
    // The whole pool waits out each pause, and says nothing more than its summary.
    expect(r.stderr).toMatch(/^✓ \d+ lines read: 50 created, 0 already done, 0 failed in /);
    // 50 requests at 20 per 2-second window: the sandbox refuses any over its limit, so every line
    // created means the run waited out the windows (no wall-clock bound needed).
    expect(await allParcels(env)).toHaveLength(50);
  });
});

describe('bulk events add / attempts add --from', () => {
  it('`list -o ndjson | events add --from - --status` and a CSV of attempts land on the right parcels', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'three.ndjson', [parcelLine(1), parcelLine(2), parcelLine(3)]);
    const created = results(await parcels(['create', '--from', input], { env })).map((r) => r.entry_id as string);

    const list = await parcels(['list', '-o', 'ndjson'], { env });
    const events = await parcels(['events', 'add', '--from', '-', '--status', 'in_transit'], { env, input: list.stdout });
    expect(events.code, events.stderr).toBe(0);
    const listed = results(list).map((p) => p.entry_id);
    expect(results(events).map((r) => [r.ok, r.entry_id])).toEqual(listed.map((id) => [true, id]));
    // Every other field of `list` output is ignored, and counted.
    expect(events.stderr).toMatch(/^✓ \d+ lines read: 3 created, 0 already done, 0 failed, \d+ fields ignored in /);

    const [first, second] = created as [string, string];
    const attempts = writeLines(dir, 'attempts.csv', ['entry_id,outcome,reason', `${first},1,0`, `${second},0,`]);
    const added = await parcels(['attempts', 'add', '--from', attempts], { env });
    expect(added.code, added.stderr).toBe(0);
    expect(results(added).map((r) => [r.line, r.ok, r.entry_id])).toEqual([
      [2, true, first],
      [3, true, second],
    ]);

    for (const id of created) {
      const history = JSON.parse((await parcels(['events', 'list', id, '--json'], { env })).stdout) as { events: Array<{ status: number }> };
      expect(history.events.map((e) => e.status)).toContain(2);
    }
    const firstAttempts = JSON.parse((await parcels(['attempts', 'list', first, '--json'], { env })).stdout) as { attempts: Array<{ outcome: number }> };
    expect(firstAttempts.attempts.map((a) => a.outcome)).toEqual([1]);
    const secondParcel = JSON.parse((await parcels(['get', second, '--json'], { env })).stdout) as { status: number };
    expect(secondParcel.status).toBe(4);
    const third = created[2] as string;
    expect(JSON.parse((await parcels(['attempts', 'list', third, '--json'], { env })).stdout)).toMatchObject({ attempts: [] });
  });

  it('bare-id lines with the flags filling the body; a line naming no parcel is reported', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'one.ndjson', [parcelLine(1)]);
    const [id] = results(await parcels(['create', '--from', input], { env })).map((r) => r.entry_id as string);
    const ids = writeLines(dir, 'ids.txt', [id as string, '{"status":1}']);
    const r = await parcels(['events', 'add', '--from', ids, '--status', 'in_delivery', '--at', 'now'], { env });
    expect(r.code).toBe(2);
    expect(results(r)).toEqual([
      { line: 1, ok: true, outcome: 'created', entry_id: id },
      { line: 2, ok: false, outcome: 'failed', error: { code: 'invalid_line', field: 'entry_id', message: "entry_id is required (the parcel's id)" } },
    ]);
  });
});

describe('batches', () => {
  it('a finished batch is compacted: the re-run reads its done file, replays every line with its entry id, and batches counts stay right', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'compact.ndjson', Array.from({ length: 60 }, (_, i) => parcelLine(i + 1)));
    const first = await parcels(['create', '--from', input, '--concurrency', '8'], { env });
    expect(first.code, first.stderr).toBe(0);
    const created = results(first);

    const journals = join(dir, 'journals');
    const [target] = readdirSync(journals);
    // The target's created index (issue 27) lives beside its journals.
    const files = readdirSync(join(journals, target as string))
      .filter((file) => !file.startsWith('created.'))
      .sort();
    expect(files).toHaveLength(2);
    expect(files[1]).toMatch(/^create~[0-9a-f]{16}\.ndjson\.[0-9a-f]{12}\.done$/);
    const journal = readFileSync(join(journals, target as string, files[0] as string), 'utf8').trim().split('\n');
    expect(journal.map((line) => (JSON.parse(line) as { t: string }).t)).toEqual(['meta', 'input', 'run', 'compact']);

    const again = await parcels(['create', '--from', input], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^✓ \d+ lines read: 0 created, 60 already done, 0 failed in /);
    expect(results(again)).toEqual(created.map((r) => ({ line: r.line, ok: true, outcome: 'already_done', entry_id: r.entry_id })));
    // Nothing changed: the same done file, not a rewrite.
    expect(readdirSync(join(journals, target as string)).filter((file) => !file.startsWith('created.')).sort()).toEqual(files);

    const listed = await parcels(['batches', '-o', 'json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((b) => [b.input, b.done, b.failed, b.invalid, b.cancelled])).toEqual([[input, 60, 0, 0, 0]]);
    expect(await allParcels(env)).toHaveLength(60);
  });

  it('prune --older-than removes journals not written for that long, and nothing newer', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'few.ndjson', [parcelLine(1)]);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    const keep = await parcels(['batches', 'prune', '--older-than', '1d'], { env });
    expect(keep).toMatchObject({ code: 0, stdout: '', stderr: '✓ Removed 0 files (journals and spooled inputs)\n' });

    const journals = join(dir, 'journals');
    for (const target of readdirSync(journals)) {
      for (const file of readdirSync(join(journals, target))) utimesSync(join(journals, target, file), new Date(0), new Date(0));
    }
    const pruned = await parcels(['batches', 'prune', '--older-than', '7d'], { env });
    expect(pruned).toMatchObject({ code: 0, stderr: '✓ Removed 1 file (journals and spooled inputs); the created index forgot 1 batch\n' });
    expect(await parcels(['batches'], { env })).toMatchObject({ code: 0, stdout: '', stderr: 'No bulk-run journals.\n' });

    const bad = await parcels(['batches', 'prune', '--older-than', 'week'], { env });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('--older-than must be a whole number with a unit m, h, d or w, e.g. 7d (got "week")');
  });
});

