import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureRequest, listOutbox, OUTBOX_BATCH } from '../../src/bulk/outbox.js';
import { SymlinkError } from '../../src/config/own-file.js';
import { Journal } from '../../src/bulk/journal/journal.js';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { listJournals } from '../../src/bulk/journal/list.js';
import { acquireLock } from '../../src/bulk/journal/lock.js';
import { readJournal } from '../../src/bulk/journal/read.js';
import { UsageError } from '../../src/errors.js';

/** Journals, their locks and done files, the outbox: a symbolic link where one goes is refused, its target untouched. */

let dir: string;
let target: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-links-'));
  target = join(dir, 'precious.txt');
  writeFileSync(target, 'precious\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const TARGET = 'prof|http://h';
const id = (batch = 'b1') => ({ dir, target: TARGET, batch, input: 'in.ndjson', kind: 'create' });

/** A symbolic link to the precious file at `path` (its directory made). */
function plant(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

function untouched(link: string): void {
  expect(readFileSync(target, 'utf8')).toBe('precious\n');
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
}

describe('no journal file is opened through a symbolic link', () => {
  it('a linked journal is refused (a usage error: exit 2) and its lock let go; the batch opens once the link is gone', async () => {
    const path = journalPath(dir, TARGET, 'b1');
    plant(path);
    const error = await Journal.open(id()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SymlinkError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${path} is a symbolic link; refusing to read it`);
    untouched(path);
    expect(readdirSync(dirname(path))).toEqual([basename(path)]);
    rmSync(path);
    const journal = await Journal.open(id());
    journal.recordSent({ line: 1, key: 'k-1', method: 'POST', path: '/deliveries/v1/parcels', body: '{}', at: 1 });
    journal.close();
    expect((await readJournal(path)).lines.size).toBe(1);
  });

  it('a linked lock file is refused, not read or taken over', () => {
    const lock = `${journalPath(dir, TARGET, 'b1')}.lock`;
    plant(lock);
    expect(() => acquireLock(lock)).toThrow(new SymlinkError(lock, 'read it'));
    untouched(lock);
  });

  it('a linked done file named by a compacted journal is refused', async () => {
    const journal = await Journal.open(id());
    journal.recordSent({ line: 1, key: 'k-1', method: 'POST', path: '/deliveries/v1/parcels', body: '{}', at: 1 });
    journal.recordDone('k-1', 1, 201, '0b0c4e1a-2f3d-4c5b-8a9e-1f2e3d4c5b6a');
    await journal.compactDone();
    journal.close();
    const path = journalPath(dir, TARGET, 'b1');
    const done = readdirSync(dirname(path)).find((name) => name.endsWith('.done')) as string;
    rmSync(join(dirname(path), done));
    plant(join(dirname(path), done));
    await expect(readJournal(path)).rejects.toThrow(new SymlinkError(join(dirname(path), done), 'read it'));
    untouched(join(dirname(path), done));
  });

  it('a compaction writes a fresh temporary file: a link planted where an earlier build put it is not written through', async () => {
    const journal = await Journal.open(id());
    const temporary = `${journal.path}.compact`;
    plant(temporary);
    journal.compact([]);
    journal.close();
    untouched(temporary);
  });

  it('a linked outbox is refused by a capture and by its listing; listing journals skips it and names it', async () => {
    const place = { dir, target: TARGET };
    const path = journalPath(dir, TARGET, OUTBOX_BATCH);
    plant(path);
    const capture = { command: 'events add', request: { method: 'POST' as const, path: '/x', body: Buffer.from('{}'), idempotencyKey: 'k' } };
    await expect(captureRequest(place, capture, 1, 0)).rejects.toThrow(new SymlinkError(path, 'read it'));
    await expect(listOutbox(place)).rejects.toBeInstanceOf(SymlinkError);
    expect(await listJournals(dir)).toEqual({ journals: [], unreadable: [{ path, problem: new SymlinkError(path, 'read it').message }] });
    untouched(path);
  });
});
