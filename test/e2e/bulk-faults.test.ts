/**
 * End-to-end: a 2,000-line bulk import through the built binary against `parcels sandbox serve`
 * with injected faults. Each injected 503 would pause the whole pool for its Retry-After (by
 * design); `--fault-retry-after 0` keeps the property (random 503s and drops, exactly once) without
 * spending ~100 s in those pauses.
 */
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../helpers/seed.js';
import { UUID, bulkHelpers } from '../helpers/bulk.js';

const { parcels, serve, parcelLine, writeLines, results, allParcels } = bulkHelpers();

describe('bulk create --from under faults', () => {
  it('2,000 lines through 10% failures and 10% dropped connections: exactly 2,000 parcels; a second run creates nothing', async () => {
    const { env, dir, url } = await serve(TEST_SEED, ['--fail-rate', '0.1', '--drop-rate', '0.1', '--fault-seed', '11', '--fault-retry-after', '0']);
    const input = writeLines(dir, 'parcels.ndjson', Array.from({ length: 2000 }, (_, i) => parcelLine(i + 1)));

    const first = await parcels(['create', '--from', input, '--concurrency', '32'], { env });
    expect(first.code, first.stderr).toBe(0);
    const lines = results(first);
    expect(lines.map((r) => r.line)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(lines.every((r) => r.ok === true && UUID.test(r.entry_id as string) && r.outcome !== 'already_done')).toBe(true);
    // A line whose answer was dropped is resent with its key: the service replays what it created.
    const replayed = lines.filter((r) => r.outcome === 'replayed').length;
    expect(first.stderr).toMatch(new RegExp(`^✓ 2000 lines read: ${2000 - replayed} created, ${replayed} replayed by the service, 0 already done, 0 failed in \\d+\\.\\d s, \\d+ lines/s \\(batch [0-9a-f]{16}\\)\n$`));

    const stored = await allParcels(env);
    expect(stored).toHaveLength(2000);
    expect(new Set(stored.map((p) => p.number)).size).toBe(2000);
    expect(new Set(stored.map((p) => p.entry_id))).toEqual(new Set(lines.map((r) => r.entry_id)));

    const second = await parcels(['create', '--from', input, '--concurrency', '32'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(results(second)).toEqual(lines.map((r) => ({ line: r.line, ok: true, outcome: 'already_done', entry_id: r.entry_id })));
    expect(second.stderr).toMatch(/^✓ 2000 lines read: 0 created, 2000 already done, 0 failed in /);
    expect(await allParcels(env)).toHaveLength(2000);

    const batches = await parcels(['batches', '-o', 'json'], { env });
    expect(batches.code, batches.stderr).toBe(0);
    // The batch id as the summary printed it, the target it belongs to, and the counts of the summary.
    const batch = /\(batch ([0-9a-f]{16})\)/.exec(first.stderr)?.[1];
    expect(JSON.parse(batches.stdout)).toEqual([
      { batch, kind: 'create', target: `default ${url}`, input, done: 2000, failed: 0, invalid: 0, cancelled: 0, queued: 0, age: expect.stringMatching(/^\d+s$/) },
    ]);
  }, 240_000);
});
