/**
 * Issue 27, the daily export: one path written over each day with the day's rows and some of the
 * day before. The built binary against `parcels sandbox serve`, following the refusals' hints as
 * printed, counting parcels on the service: each parcel exactly once. A path's batch is its newest
 * (after --new-batch a plain run compares with the new one); --continue pairs lines by content, and
 * only the same parcel at the same line with other fields changed is reported as edited.
 */
import { describe, expect, it } from 'vitest';
import { UUID, bulkHelpers } from '../helpers/bulk.js';
import { hintedCommands } from '../helpers/terminal.js';

const { parcels, serve, writeLines, results, allParcels } = bulkHelpers();

/** Each case spawns the binary ten times or more, one after the other. */
const SPAWNS = 120_000;

const HEADER = 'courier,country,postal_code,number,parcel_weight';
const row = (n: number, weight = 1): string => `A-BIKE,NL,1234AB,${n},${weight}`;
/** An export of the parcels numbered `from` to `to`. */
const rows = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => row(from + i));
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const numbers = (stored: Array<Record<string, unknown>>): string[] => stored.map((p) => p.number as string).sort((a, b) => Number(a) - Number(b));

/** The refusal of a changed file: its message, and its hinted commands in the order printed. */
function refusal(stderr: string): { message: string; commands: string[][] } {
  return { message: stderr.split('\n')[0] as string, commands: hintedCommands(stderr) };
}

describe('the daily export, hint by hint', () => {
  it('Monday 100 lines; Tuesday and Wednesday written over with 20 leftovers and new rows: each refusal says how many match, its first hint creates the new rows alone', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'export.csv', [HEADER, ...rows(1, 100)]);
    const monday = await parcels(['create', '--from', input], { env });
    expect(monday.code, monday.stderr).toBe(0);
    const batch = /\(batch ([0-9a-f]{16})\)/.exec(monday.stderr)?.[1] as string;

    // Tuesday: Monday's last 20, then 80 new.
    writeLines(dir, 'export.csv', [HEADER, ...rows(81, 180)]);
    const tuesday = await parcels(['create', '--from', input], { env });
    expect(tuesday.code).toBe(2);
    expect(tuesday.stdout).toBe('');
    const refused = refusal(tuesday.stderr);
    expect(refused.message).toMatch(new RegExp(`^Error: --from: ${input} changed since batch ${batch} last ran \\(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\): 20 of 100 lines match it; nothing was sent$`));
    expect(tuesday.stderr).toContain(
      `\`parcels create --from ${input} --continue\` sends the 80 new lines and replays the 20 (recommended: nothing is created twice); \`parcels create --from ${input} --new-batch --skip-created\` imports it as a new batch and skips the 20 lines that batches on this target created (\`--create-again\` instead of \`--skip-created\` creates them again)`,
    );
    expect(refused.commands).toEqual([
      ['create', '--from', input, '--continue'],
      ['create', '--from', input, '--new-batch', '--skip-created'],
    ]);
    expect(await allParcels(env)).toHaveLength(100);

    const continued = await parcels(refused.commands[0] as string[], { env });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).toMatch(/^✓ \d+ lines read: 80 created, 20 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(continued.stderr).not.toContain('edited');
    expect(results(continued).filter((r) => r.earlier_entry_id !== undefined)).toEqual([]);

    // Wednesday: Tuesday's last 20, then 50 new.
    writeLines(dir, 'export.csv', [HEADER, ...rows(161, 230)]);
    const wednesday = await parcels(['create', '--from', input], { env });
    expect(wednesday.code).toBe(2);
    expect(refusal(wednesday.stderr).message).toContain(`changed since batch ${batch} last ran`);
    expect(refusal(wednesday.stderr).message).toContain(': 20 of 70 lines match it; nothing was sent');
    const next = await parcels(refusal(wednesday.stderr).commands[0] as string[], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/^✓ \d+ lines read: 50 created, 20 already done, 1 skipped \(1 header\), 0 failed in /);

    // The same file again: nothing sent.
    const again = await parcels(['create', '--from', input], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^✓ \d+ lines read: 0 created, 70 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(numbers(await allParcels(env))).toEqual(range(1, 230));
  }, SPAWNS);

  it("after --new-batch a plain run compares with the new batch: it replays, and the next day's refusal names the new batch; `parcels batches` shows which one a plain run uses", async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'export.csv', [HEADER, ...rows(1, 30)]);
    const monday = await parcels(['create', '--from', input], { env });
    expect(monday.code, monday.stderr).toBe(0);
    const mondayBatch = /\(batch ([0-9a-f]{16})\)/.exec(monday.stderr)?.[1] as string;
    writeLines(dir, 'export.csv', [HEADER, ...rows(21, 60)]);
    const refused = refusal((await parcels(['create', '--from', input], { env })).stderr);
    // The second way on, as printed: a new batch of the file that skips Monday's 10 leftovers (the created index).
    expect(refused.commands[1]).toEqual(['create', '--from', input, '--new-batch', '--skip-created']);
    const newBatch = await parcels(refused.commands[1] as string[], { env });
    expect(newBatch.code, newBatch.stderr).toBe(0);
    expect(newBatch.stderr).toMatch(/^✓ \d+ lines read: 30 created, 0 already done, 11 skipped \(1 header, 10 created by an earlier batch\), 0 failed in /);
    const tuesdayBatch = /\(batch ([0-9a-f]{16})\)/.exec(newBatch.stderr)?.[1] as string;
    expect(tuesdayBatch).not.toBe(mondayBatch);
    expect(await allParcels(env)).toHaveLength(60);

    // The plain command now compares with Tuesday's batch: unchanged, nothing sent (the leftovers skipped again, as that batch chose).
    const plain = await parcels(['create', '--from', input], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(new RegExp(`^✓ \\d+ lines read: 0 created, 30 already done, 11 skipped \\(1 header, 10 created by an earlier batch\\), 0 failed in .*\\(batch ${tuesdayBatch}\\)\\n`));

    const listed = await parcels(['batches', '-o', 'json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const byBatch = new Map((JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((b) => [b.batch, b.superseded_by]));
    expect([...byBatch].sort()).toEqual([
      [mondayBatch, tuesdayBatch],
      [tuesdayBatch, undefined],
    ].sort());

    // Wednesday: Tuesday's last 10, then 20 new. The refusal names Tuesday's batch; its first hint creates the 20 alone.
    writeLines(dir, 'export.csv', [HEADER, ...rows(51, 80)]);
    const wednesday = refusal((await parcels(['create', '--from', input], { env })).stderr);
    expect(wednesday.message).toContain(`changed since batch ${tuesdayBatch} last ran`);
    expect(wednesday.message).toContain(': 10 of 30 lines match it; nothing was sent');
    const continued = await parcels(wednesday.commands[0] as string[], { env });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).toMatch(new RegExp(`^✓ \\d+ lines read: 20 created, 10 already done, 1 skipped \\(1 header\\), 0 failed in .*\\(batch ${tuesdayBatch}\\)\\n`));
    // 1–30 on Monday, 31–60 as Tuesday's new batch (21–30 skipped), 61–80: each parcel once.
    expect(numbers(await allParcels(env))).toEqual(range(1, 80));
  }, SPAWNS);
});

describe('--continue pairs lines by content', () => {
  it("over a new day's file: no edited warning and no earlier_entry_id, although every line number held one of Monday's parcels", async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'export.csv', [HEADER, ...rows(1, 40)]);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    writeLines(dir, 'export.csv', [HEADER, ...rows(101, 140)]);
    const refused = await parcels(['create', '--from', input], { env });
    // Nothing matches: a new batch is the first way on, continuing the second.
    expect(refusal(refused.stderr).message).toContain(': 0 of 40 lines match it; nothing was sent');
    expect(refusal(refused.stderr).commands).toEqual([
      ['create', '--from', input, '--new-batch'],
      ['create', '--from', input, '--continue'],
    ]);
    const continued = await parcels(['create', '--from', input, '--continue'], { env });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).toMatch(/^✓ \d+ lines read: 40 created, 0 already done, 1 skipped \(1 header\), 0 failed in /);
    expect(continued.stderr).not.toContain('edited');
    expect(results(continued).filter((r) => r.earlier_entry_id !== undefined)).toEqual([]);
    expect(numbers(await allParcels(env))).toEqual([...range(1, 40), ...range(101, 140)]);
  }, SPAWNS);

  it('the same parcel at the same line with another weight is edited: sent, its result and the summary name the earlier parcel; another house there is new', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'edit.csv', [HEADER, row(1), row(2), row(3)]);
    const first = results(await parcels(['create', '--from', input], { env }));
    const earlier = first[1]?.entry_id as string;
    writeLines(dir, 'edit.csv', [HEADER, row(1), row(2, 5), row(33)]);
    const refused = refusal((await parcels(['create', '--from', input], { env })).stderr);
    expect(refused.message).toContain(': 1 of 3 lines match it; nothing was sent');
    const edited = await parcels(refused.commands[0] as string[], { env });
    expect(edited.code, edited.stderr).toBe(0);
    const [, second, third] = results(edited);
    expect(second).toEqual({ line: 3, ok: true, outcome: 'created', entry_id: expect.stringMatching(UUID), earlier_entry_id: earlier });
    expect(third).toEqual({ line: 4, ok: true, outcome: 'created', entry_id: expect.stringMatching(UUID) });
    expect(edited.stderr.split('\n')[1]).toBe(`! 1 edited line was sent as a new request; what its earlier version created is unchanged: line 3 (was ${earlier})`);
    expect(numbers(await allParcels(env))).toEqual(['1', '2', '2', '3', '33']);
  }, SPAWNS);
});
