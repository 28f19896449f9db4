/**
 * End-to-end: a 2,000-line bulk import through the built binary against `parcels sandbox serve`
 * with injected faults. Its own file because it runs long: each injected 503 carries
 * `Retry-After: 1`, which pauses the whole pool for a second (by design), about 100 times.
 */
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../helpers/seed.js';
import { UUID, bulkHelpers } from '../helpers/bulk.js';

const { parcels, serve, parcelLine, writeLines, results, allParcels } = bulkHelpers();

describe('bulk create --from under faults', () => {
  it('2,000 lines through 10% failures and 10% dropped connections: exactly 2,000 parcels; a second run creates nothing', async () => {
    const { env, dir, url } = await serve(TEST_SEED, ['--fail-rate', '0.1', '--drop-rate', '0.1', '--fault-seed', '11']);
    const input = writeLines(dir, 'parcels.ndjson', Array.from({ length: 2000 }, (_, i) => parcelLine(i + 1)));

    const first = await parcels(['create', '--from', input, '--concurrency', '32'], { env });
    expect(first.code, first.stderr).toBe(0);
    const lines = results(first);
    expect(lines.map((r) => r.line)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(lines.every((r) => r.ok === true && UUID.test(r.entry_id as string) && r.outcome !== 'already_done')).toBe(true);
    expect(first.stderr).toMatch(/^✓ 2000 lines read: 2000 created, 0 already done, 0 failed in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)\n$/);

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
      { batch, kind: 'create', target: `default ${url}`, input, done: 2000, failed: 0, invalid: 0, cancelled: 0, age: expect.stringMatching(/^\d+s$/) },
    ]);
  }, 240_000);
});
