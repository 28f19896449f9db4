/**
 * Journals of the released version (version 1) are read through an adapter opened with the run's
 * journal (src/bulk/legacy.ts): a target folder without one costs a directory listing, opens no
 * other batch's journal and gives the run no adapter for its lines to ask.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/bulk/journal/journal.js';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { LegacyJournals } from '../../src/bulk/legacy.js';

const root = mkdtempSync(join(tmpdir(), 'bulk-legacy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const TARGET = 'default api-0000000000000000';
const FIXTURES = 'test/fixtures/legacy-journals';

/** A FIFO: opening it to read would wait for a writer for ever (and the one opener refuses it). */
function fifo(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
}

async function freshJournal(dir: string): Promise<Journal> {
  return Journal.open({ dir, target: TARGET, batch: 'create~0123456789abcdef', input: '/in.ndjson', kind: 'create' });
}

describe('version-1 journals, read by an adapter at open', () => {
  it("a folder holding only this version's journals (here FIFOs no open could read) gives no adapter, and none is opened", async () => {
    const dir = mkdtempSync(join(root, 'none-'));
    for (const batch of ['create~aaaaaaaaaaaaaaaa', 'create~bbbbbbbbbbbbbbbb', 'events~cccccccccccccccc', 'outbox']) fifo(journalPath(dir, TARGET, batch));
    const journal = await freshJournal(dir);
    try {
      await expect(LegacyJournals.forNewJournal(journal, dir, TARGET, 'create', { path: '/in.ndjson', batchId: undefined, sha256: 'ff'.repeat(32) })).resolves.toBeUndefined();
    } finally {
      journal.close();
    }
  });

  it("one of this input's content is adapted: its confirmed lines answer by line number and bytes", async () => {
    const dir = mkdtempSync(join(root, 'found-'));
    const input = join(dir, 'interrupted.ndjson');
    copyFileSync(join(FIXTURES, 'interrupted.ndjson'), input);
    const sha256 = createHash('sha256').update(readFileSync(input)).digest('hex');
    const old = journalPath(dir, TARGET, `create-${sha256}`);
    mkdirSync(dirname(old), { recursive: true });
    copyFileSync(join(FIXTURES, 'interrupted.journal.ndjson'), old);
    fifo(journalPath(dir, TARGET, 'create~aaaaaaaaaaaaaaaa'));
    const journal = await freshJournal(dir);
    try {
      const legacy = await LegacyJournals.forNewJournal(journal, dir, TARGET, 'create', { path: undefined, batchId: undefined, sha256 });
      const line1 = Buffer.from(readFileSync(input, 'utf8').split('\n')[0] as string);
      expect(legacy?.lookup(1, line1)).toEqual({ kind: 'done', entryId: '11111111-1111-4111-8111-111111111111' });
    } finally {
      journal.close();
    }
  });
});
