/**
 * End-to-end `parcels batches` after `--queue --from` during an outage: the built binary against a
 * service that cannot be reached. The journal's run record counts the lines kept in the outbox, and
 * `batches` shows them as queued (not cancelled), in JSON and as a table; a journal whose run record
 * was written before it counted them shows the lines it still marks queued.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_KEY } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';
import { bulkHelpers, droppingServer, parcelLine } from '../helpers/bulk.js';

const { parcels, writeLines, results } = bulkHelpers();

describe('parcels batches counts queued lines', () => {
  it('a --queue run during an outage: queued 12, cancelled 0, in the run record, --json and the table; an older run record reads too', async () => {
    const down = await droppingServer();
    try {
      const env = binaryEnv({ PARCELS_BASE_URL: `http://127.0.0.1:${down.port}`, PARCELS_API_KEY: FULL_KEY });
      const dir = env.PARCELS_CONFIG_DIR as string;
      const input = writeLines(dir, 'parcels.ndjson', Array.from({ length: 12 }, (_, i) => parcelLine(i + 1)));
      const run = await parcels(['create', '--from', input, '--concurrency', '4', '--retries', '1', '--queue'], { env });
      expect(run.code, run.stderr).toBe(75);
      expect(results(run).map((r) => r.outcome)).toEqual(Array.from({ length: 12 }, () => 'queued'));
      const batch = /\(batch ([0-9a-f]{16})\)\n$/.exec(run.stderr)?.[1] as string;

      const journals = join(dir, 'journals');
      const [target] = readdirSync(journals);
      const journal = join(journals, target as string, `create~${batch}.ndjson`);
      const runRecords = (): Array<Record<string, unknown>> =>
        readFileSync(journal, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((record) => record.t === 'run');
      expect(runRecords()).toEqual([{ t: 'run', created: 0, replayed: 0, failed: 0, invalid: 0, cancelled: 0, skipped: 0, queued: 12, at: expect.any(Number), content: expect.any(String) }]);

      const where = `default http://127.0.0.1:${down.port}`;
      const listed = await parcels(['batches', '--json'], { env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([{ batch, kind: 'create', target: where, input, done: 0, failed: 0, invalid: 0, cancelled: 0, queued: 12, age: expect.stringMatching(/^\d+s$/) }]);

      const table = await parcels(['batches'], { env });
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(new RegExp(`^batch\\tkind\\ttarget\\tinput\\tdone\\tfailed\\tinvalid\\tcancelled\\tqueued\\tage\\n${batch}\\tcreate\\t${where}\\t${input}\\t0\\t0\\t0\\t0\\t12\\t\\d+s\\n$`));

      // A run record written before it counted queued lines: the lines the journal marks queued stand in.
      writeFileSync(journal, readFileSync(journal, 'utf8').replace(/,"queued":12/, ''));
      expect(runRecords()[0]).not.toHaveProperty('queued');
      const older = await parcels(['batches', '--json'], { env });
      expect(older.code, older.stderr).toBe(0);
      expect((JSON.parse(older.stdout) as Array<Record<string, unknown>>).map((b) => [b.done, b.failed, b.cancelled, b.queued])).toEqual([[0, 0, 0, 12]]);
    } finally {
      await down.close();
    }
  }, 120_000);
});
