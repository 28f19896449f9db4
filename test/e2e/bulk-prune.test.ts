/**
 * End-to-end `batches prune`: the built binary against `parcels sandbox serve`. A pruned batch
 * leaves no file behind: its journal, its done file, its latest run's results file and the
 * newest-batch pointer naming it all go.
 */
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bulkHelpers } from '../helpers/bulk.js';

const { parcels, serve, writeLines, allParcels } = bulkHelpers();

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('batches prune', () => {
  it('removes a pruned batch with its results file and the newest-batch pointer naming it: no orphan file is left', async () => {
    const { env, dir } = await serve();
    const header = 'courier,country,postal_code,number';
    const input = writeLines(dir, 'export.csv', [header, 'A-BIKE,NL,1234AB,1', 'A-BIKE,NL,1234AB,2']);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    writeLines(dir, 'export.csv', [header, 'A-BIKE,NL,1234AB,3']);
    const tuesday = await parcels(['create', '--from', input, '--new-batch'], { env });
    expect(tuesday.code, tuesday.stderr).toBe(0);
    expect(await allParcels(env)).toHaveLength(3);

    const journals = join(dir, 'journals');
    const [target] = readdirSync(journals);
    const folder = join(journals, target as string);
    const batchFiles = (): string[] => filesUnder(folder).filter((file) => !file.startsWith('created.'));
    const journalFiles = batchFiles().filter((file) => file.endsWith('.ndjson'));
    expect(journalFiles).toHaveLength(2);
    // What a run at a terminal writes beside its journal.
    for (const journal of journalFiles) writeFileSync(join(folder, journal.replace(/\.ndjson$/, '.results.jsonl')), '{"line":2,"ok":true}\n');
    expect(batchFiles().filter((file) => file.startsWith('newest/'))).toHaveLength(1);
    for (const file of filesUnder(folder)) utimesSync(join(folder, file), new Date(0), new Date(0));

    const pruned = await parcels(['batches', 'prune', '--older-than', '7d'], { env });
    expect(pruned).toEqual({ code: 0, stdout: '', stderr: '✓ Removed 2 files (journals and spooled inputs), with 2 results files and 1 newest-batch pointer; the created index forgot 2 batches\n' });
    expect(batchFiles()).toEqual([]);
    expect(existsSync(join(folder, 'newest'))).toBe(true);

  }, 120_000);
});
