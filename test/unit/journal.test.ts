import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/bulk/journal/journal.js';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { CorruptJournalError, readJournal } from '../../src/bulk/journal/read.js';
import { JournalLockedError, acquireLock, acquireLockWaiting } from '../../src/bulk/journal/lock.js';
import { listJournals, pruneJournals } from '../../src/bulk/journal/list.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const id = (batch = 'b1', target = 'prof|http://h') => ({ dir, target, batch, input: 'in.ndjson', kind: 'create' });
/** The key (and identity) of line N's request in these tests. */
const k = (line: number): string => `key-${line}-0123`;
const sent = (line: number) => ({ line, key: `key-${line}-0123`, method: 'POST', path: '/deliveries/v1/parcels', body: `{"n":${line}}`, at: 1000 + line });

describe('journal', () => {
  it('keeps what a run sent and learnt for the next run, and is written 0600 under journals/<target hash>/', async () => {
    const first = await Journal.open(id(), { now: () => 42 });
    first.recordSent(sent(1));
    first.recordSent(sent(2));
    first.recordSent(sent(3));
    first.recordDone(k(1), 1, 201, 'id-1');
    first.recordRejected(k(3), 3, 422, 'validation_failed');
    first.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(path.startsWith(join(dir, 'journals'))).toBe(true);

    const second = await Journal.open(id());
    expect(second.meta).toEqual({ t: 'meta', v: 2, batch: 'b1', target: 'prof|http://h', input: 'in.ndjson', kind: 'create', created: 42 });
    // A confirmed line keeps a tag of its key and its entry id, not its body.
    expect(second.previous.has(k(1))).toBe(false);
    expect([second.done.has('key-1-0123'), second.done.has('key-1-other'), second.done.entryId(k(1))]).toEqual([true, false, 'id-1']);
    expect(second.previous.get(k(2))).toEqual({ sent: { t: 'sent', ...sent(2) } });
    expect(second.done.has('key-2-0123')).toBe(false);
    expect(second.previous.get(k(3))?.rejected).toEqual({ t: 'rejected', line: 3, k: k(3), status: 422, code: 'validation_failed' });
    second.close();
    // One meta line only, even after two opens.
    expect(readFileSync(path, 'utf8').split('\n').filter((l) => l.includes('"meta"'))).toHaveLength(1);
  });

  it('a torn last line (kill -9 mid-write) is ignored and cut off before the next append', async () => {
    const journal = await Journal.open(id());
    journal.recordSent(sent(1));
    journal.recordSent(sent(2));
    journal.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    appendFileSync(path, '{"t":"done","line":2,"sta');
    const read = await readJournal(path);
    expect(read.torn).toBe(true);
    expect(read.lines.get(k(2))).toEqual({ sent: { t: 'sent', ...sent(2) } });

    const reopened = await Journal.open(id());
    reopened.recordDone(k(2), 2, 201, 'id-2');
    reopened.close();
    const again = await readJournal(path);
    expect(again.torn).toBe(false);
    expect(again.done.entryId(k(2))).toBe('id-2');
    expect(again.lines.has(k(2))).toBe(false);
  });

  it('a damaged line in the middle is an error, not silently skipped', async () => {
    const journal = await Journal.open(id());
    journal.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    appendFileSync(path, 'garbage\n{"t":"done","line":1,"status":201}\n');
    await expect(readJournal(path)).rejects.toThrow(CorruptJournalError);
  });

  it('a line edited since it was confirmed is another request: both are kept, each under its identity', async () => {
    const journal = await Journal.open(id());
    journal.recordSent(sent(1));
    journal.recordDone(k(1), 1, 201, 'old');
    journal.recordSent({ ...sent(1), key: 'other-key-123' });
    journal.close();
    const read = await readJournal(journalPath(dir, 'prof|http://h', 'b1'));
    expect(read.lines.get('other-key-123')).toEqual({ sent: { t: 'sent', ...sent(1), key: 'other-key-123' } });
    expect([read.done.size, read.done.entryId(k(1))]).toEqual([1, 'old']);
  });

  it('a journal of version 1 (outcomes name a line) is read: each outcome answers the last request sent for its line', async () => {
    const path = journalPath(dir, 'prof|http://h', 'v1');
    const records = [
      { t: 'meta', v: 1, batch: 'v1', target: 'prof|http://h', input: 'in.ndjson', kind: 'create', created: 1 },
      { t: 'sent', ...sent(1) },
      { t: 'sent', ...sent(2) },
      { t: 'sent', ...sent(3) },
      { t: 'done', line: 1, status: 201, id: 'id-1' },
      { t: 'rejected', line: 3, status: 422, code: 'validation_failed' },
      // Line 1 sent anew (its bytes changed under the same --batch-id): the answer to it comes later.
      { t: 'sent', ...sent(1), key: 'other-key-123' },
      { t: 'done', line: 1, status: 201, id: 'id-1b' },
    ];
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const read = await readJournal(path);
    expect([read.done.entryId(k(1)), read.done.entryId('other-key-123'), read.done.size]).toEqual(['id-1', 'id-1b', 2]);
    expect([...read.lines.keys()]).toEqual([k(2), k(3)]);
    expect(read.lines.get(k(3))?.rejected).toMatchObject({ line: 3, code: 'validation_failed' });
  });

  it('two runs of one batch at once: the second is refused while the first holds it, and may run after', async () => {
    const first = await Journal.open(id());
    await expect(Journal.open(id())).rejects.toThrow(JournalLockedError);
    await expect(Journal.open(id())).rejects.toThrow(`another run (pid ${process.pid}) is using this batch`);
    // Another batch, or the same batch for another target, is not blocked.
    (await Journal.open(id('b2'))).close();
    (await Journal.open(id('b1', 'prof|http://other'))).close();
    first.close();
    (await Journal.open(id())).close();
  });

  it('a waiting lock polls until the holder lets go, and gives up with the lock error after its wait', async () => {
    const lockPath = join(dir, 'w.lock');
    const holder = acquireLock(lockPath);
    let now = 0;
    const sleeps: number[] = [];
    const clock = { now: () => now, pollMs: 50 };
    const waited = acquireLockWaiting(lockPath, {
      ...clock,
      waitMs: 10_000,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
        if (now >= 200) holder.release();
      },
    });
    (await waited).release();
    expect(sleeps).toEqual([50, 50, 50, 50]);

    const again = acquireLock(lockPath);
    now = 0;
    sleeps.length = 0;
    const sleep = async (ms: number): Promise<void> => {
      sleeps.push(ms);
      now += ms;
    };
    await expect(acquireLockWaiting(lockPath, { ...clock, waitMs: 120, sleep })).rejects.toThrow(`another run (pid ${process.pid}) is using this batch`);
    expect(sleeps).toEqual([50, 50, 20]);
    again.release();
  });

  it('a lock left by a process that no longer runs is stale and taken over', () => {
    const lockPath = join(dir, 'x.lock');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(lockPath, `${dead}\n`);
    const lock = acquireLock(lockPath);
    expect(readFileSync(lockPath, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(() => statSync(lockPath)).toThrow();
  });

  it('a lock file without a pid yet is held if fresh (its run is writing it), stale if old', () => {
    const lockPath = join(dir, 'y.lock');
    writeFileSync(lockPath, '');
    expect(() => acquireLock(lockPath)).toThrow(JournalLockedError);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lockPath, old, old);
    acquireLock(lockPath).release();
  });

  it('lists journals with their counts and age, and prunes those older than N (not a locked one)', async () => {
    const a = await Journal.open(id('old'));
    a.recordSent(sent(1));
    a.recordSent(sent(2));
    a.recordSent(sent(3));
    a.recordDone(k(1), 1, 201, 'x');
    a.recordRejected(k(2), 2, 404, 'not_found');
    a.close();
    const b = await Journal.open(id('new'));
    const oldPath = journalPath(dir, 'prof|http://h', 'old');
    const tenDaysAgo = (Date.now() - 10 * 86_400_000) / 1000;
    utimesSync(oldPath, tenDaysAgo, tenDaysAgo);

    const list = (await listJournals(dir)).journals;
    expect(list.map((j) => [j.batch, j.kind, j.input, j.counts])).toEqual([
      ['new', 'create', 'in.ndjson', { done: 0, rejected: 0, uncertain: 0, queued: 0 }],
      ['old', 'create', 'in.ndjson', { done: 1, rejected: 1, uncertain: 1, queued: 0 }],
    ]);
    expect(list[1]?.ageMs).toBeGreaterThan(9 * 86_400_000);

    const newPath = journalPath(dir, 'prof|http://h', 'new');
    utimesSync(newPath, tenDaysAgo, tenDaysAgo);
    expect(pruneJournals(dir, 7 * 86_400_000)).toEqual([oldPath]);
    b.recordSent(sent(1));
    b.close();
    expect((await listJournals(dir)).journals.map((j) => j.batch)).toEqual(['new']);
  });

  it('lists journals written in the same second newest first, though the clock it is given counts whole seconds', async () => {
    const second = Math.floor(Date.now() / 1000) - 60;
    for (const [batch, at] of [['first', second + 0.1], ['third', second + 0.7], ['second', second + 0.4]] as const) {
      const journal = await Journal.open(id(batch));
      journal.recordSent(sent(1));
      journal.close();
      utimesSync(journalPath(dir, 'prof|http://h', batch), at, at);
    }
    // The command's clock says the start of that second: every age is 0, the order still the files'.
    const list = (await listJournals(dir, second * 1000)).journals;
    expect(list.map((j) => [j.batch, j.ageMs])).toEqual([
      ['third', 0],
      ['second', 0],
      ['first', 0],
    ]);
  });

  it('confirmed lines are packed: UUID entry ids round-trip, other ids are kept as given, and it grows past its first block', async () => {
    const journal = await Journal.open(id());
    const uuid = (i: number) => `0b0c4e1a-2f3d-4c5b-8a9e-${i.toString(16).padStart(12, '0')}`;
    for (let line = 1; line <= 5000; line++) {
      journal.recordSent(sent(line));
      journal.recordDone(k(line), line, 201, line === 7 ? 'not-a-uuid' : line === 8 ? undefined : uuid(line));
    }
    journal.close();
    const read = await readJournal(journalPath(dir, 'prof|http://h', 'b1'));
    expect(read.done.size).toBe(5000);
    expect(read.done.maxLine).toBe(5000);
    expect([read.done.entryId(k(1)), read.done.entryId(k(4999)), read.done.entryId(k(7)), read.done.entryId(k(8)), read.done.entryId(k(5001))]).toEqual([
      uuid(1),
      uuid(4999),
      'not-a-uuid',
      undefined,
      undefined,
    ]);
    expect(read.done.has('key-4999-0123')).toBe(true);
    expect(read.lines.size).toBe(0);
  });

  it('a finished journal compacts to its meta and a done file a re-run reads instead; later records apply on top', async () => {
    const uuid = (i: number) => `0b0c4e1a-2f3d-4c5b-8a9e-${i.toString(16).padStart(12, '0')}`;
    const journal = await Journal.open(id());
    // Past one page of 65,536 lines, so the done file spans two.
    for (const line of [1, 2, 3, 70_000]) {
      journal.recordSent(sent(line));
      journal.recordDone(k(line), line, 201, line === 2 ? 'not-a-uuid' : line === 3 ? undefined : uuid(line));
    }
    await journal.compactDone();
    journal.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    const files = readdirSync(join(path, '..')).sort();
    expect(files).toHaveLength(2);
    const doneFile = files[1] as string;
    expect(doneFile).toMatch(/^b1\.ndjson\.[0-9a-f]{12}\.done$/);
    const records = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([expect.objectContaining({ t: 'meta', batch: 'b1' }), { t: 'compact', file: doneFile, count: 4, sha256: createHash('sha256').update(readFileSync(join(path, '..', doneFile))).digest('hex') }]);
    expect(statSync(join(path, '..', doneFile)).mode & 0o777).toBe(0o600);

    const read = await readJournal(path);
    expect(read.done.size).toBe(4);
    expect([1, 2, 3, 4, 70_000].map((line) => [read.done.has(`key-${line}-0123`), read.done.entryId(k(line))])).toEqual([
      [true, uuid(1)],
      [true, 'not-a-uuid'],
      [true, undefined],
      [false, undefined],
      [true, uuid(70_000)],
    ]);
    expect(read.done.has('another-key-0123')).toBe(false);
    expect((await listJournals(dir)).journals.map((j) => j.counts)).toEqual([{ done: 4, rejected: 0, uncertain: 0, queued: 0 }]);

    // A later run sends an edited line 2 (another request) and adds line 4: on top of the done file.
    const later = await Journal.open(id());
    later.recordSent({ ...sent(2), key: 'changed-key-2' });
    later.recordSent(sent(4));
    later.recordDone(k(4), 4, 201, uuid(4));
    later.close();
    const again = await readJournal(path);
    expect([again.done.size, again.done.has(k(2)), again.lines.get('changed-key-2')?.sent?.line, again.done.entryId(k(4))]).toEqual([5, true, 2, uuid(4)]);
    expect((await listJournals(dir)).journals.map((j) => j.counts)).toEqual([{ done: 5, rejected: 0, uncertain: 1, queued: 0 }]);

    // The edited line still uncertain: no compaction. Once confirmed, a new done file replaces the old one.
    const third = await Journal.open(id());
    third.recordSent(sent(5));
    third.recordDone(k(5), 5, 201, uuid(5));
    await third.compactDone();
    expect(readdirSync(join(path, '..')).filter((f) => f.endsWith('.done'))).toEqual([doneFile]);
    third.recordDone('changed-key-2', 2, 201, uuid(2));
    await third.compactDone();
    third.close();
    const final = readdirSync(join(path, '..')).sort();
    expect(final).toHaveLength(2);
    expect(final).not.toContain(doneFile);
    const last = await readJournal(path);
    expect([last.done.size, last.done.has('changed-key-2'), last.done.entryId('changed-key-2'), last.done.entryId(k(5)), last.lines.size]).toEqual([7, true, uuid(2), uuid(5), 0]);

    expect(pruneJournals(dir, -1)).toEqual([path]);
    expect(readdirSync(join(path, '..'))).toEqual([]);
  });

  it('a compaction from the records applied as they were written writes exactly what reading the journal back writes', async () => {
    const uuid = (i: number) => `0b0c4e1a-2f3d-4c5b-8a9e-${i.toString(16).padStart(12, '0')}`;
    /** The same three runs on a batch of its own; the last one applies up to `applied` records as it writes them. */
    const runs = async (batch: string, applied: number, compactFirst: boolean) => {
      const first = await Journal.open(id(batch), { compactsWhenDone: true });
      for (const line of [1, 2, 3, 4]) first.recordSent(sent(line));
      for (const line of [1, 2, 3]) first.recordDone(k(line), line, 201, uuid(line));
      if (compactFirst) {
        first.recordDone(k(4), 4, 201, uuid(4));
        await first.compactDone();
      }
      first.close();
      // Line 3 sent again with other bytes and left uncertain, line 4 refused (or confirmed before and refused now).
      const second = await Journal.open(id(batch));
      second.recordSent({ ...sent(3), key: 'edited-3' });
      second.recordRejected(k(4), 4, 422, 'validation_failed');
      second.close();
      const third = await Journal.open(id(batch), { compactsWhenDone: true, recordsApplied: applied });
      third.recordSent({ ...sent(3), key: 'edited-3' });
      third.recordDone('edited-3', 3, 201, uuid(33));
      third.recordSent(sent(4));
      third.recordDone(k(4), 4, 200, uuid(44));
      third.recordSent(sent(5));
      third.recordDone(k(5), 5, 201, undefined);
      // A request whose line moved (sent as line 2, confirmed as line 6): the sent record's line counts.
      third.recordSent({ ...sent(6), line: 2 });
      third.recordDone(k(6), 6, 201, uuid(6));
      await third.compactDone();
      third.close();
      const path = journalPath(dir, 'prof|http://h', batch);
      const records = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const doneFile = records.find((record) => record.t === 'compact')?.file as string;
      const read = await readJournal(path);
      // As both write them but for the done file's random name, the batch's name and the meta's clock.
      const comparable = records.map((record) => Object.fromEntries(Object.entries(record).filter(([name]) => !['file', 'batch', 'created'].includes(name))));
      return { records: comparable, done: readFileSync(join(path, '..', doneFile)), size: read.done.size, lines: read.lines.size };
    };
    for (const compactFirst of [false, true]) {
      const fromMemory = await runs(`memory-${compactFirst}`, 100, compactFirst);
      // Past the bound (3 of its 8 records applied), the journal is read back.
      const readBack = await runs(`read-${compactFirst}`, 3, compactFirst);
      expect(fromMemory.size).toBe(7);
      expect(fromMemory.lines).toBe(0);
      expect(fromMemory.done.equals(readBack.done)).toBe(true);
      expect(fromMemory.records).toEqual(readBack.records);
    }
  });

  it('compaction cut short by kill -9 leaves a readable journal: before the switch the full one, after it the compact one', async () => {
    const journal = await Journal.open(id());
    for (const line of [1, 2]) {
      journal.recordSent(sent(line));
      journal.recordDone(k(line), line, 201, undefined);
    }
    journal.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    const full = readFileSync(path, 'utf8');
    expect(full.split('\n').filter(Boolean)).toHaveLength(5);
    // Killed after the done file was written, before the journal was replaced: a done file nobody names.
    writeFileSync(`${path}.0123456789ab.done`, 'half-written garbage');
    const before = await readJournal(path);
    expect([before.done.size, before.done.has('key-2-0123')]).toEqual([2, true]);

    // The next run compacts (its records are all confirmed) and removes the stray file.
    const next = await Journal.open(id());
    next.recordSent(sent(3));
    next.recordDone(k(3), 3, 201, undefined);
    await next.compactDone();
    next.close();
    const files = readdirSync(join(path, '..'));
    expect(files.filter((f) => f.endsWith('.done'))).toHaveLength(1);
    expect(files).not.toContain('b1.ndjson.0123456789ab.done');
    expect(readFileSync(path, 'utf8')).not.toBe(full);
    expect((await readJournal(path)).done.size).toBe(3);

    // A compact journal whose done file is missing or torn is reported, never read as empty.
    const doneFile = files.find((f) => f.endsWith('.done')) as string;
    writeFileSync(join(path, '..', doneFile), readFileSync(join(path, '..', doneFile)).subarray(0, 40));
    await expect(readJournal(path)).rejects.toThrow(CorruptJournalError);
    await expect(readJournal(path)).rejects.toThrow(`its done file ${doneFile} cannot be read`);
  });

  it('a journal of records whose lines are all confirmed (an earlier version wrote no done file) is compacted by a run that sends nothing', async () => {
    const journal = await Journal.open(id());
    journal.recordSent(sent(1));
    journal.recordDone(k(1), 1, 201, undefined);
    journal.close();
    const path = journalPath(dir, 'prof|http://h', 'b1');
    const rerun = await Journal.open(id());
    await rerun.compactDone();
    rerun.close();
    expect(readFileSync(path, 'utf8')).toContain('"t":"compact"');
    expect((await readJournal(path)).done.has('key-1-0123')).toBe(true);
  });

  it('a journal closed before any line was recorded (a run that crashed or was refused before sending) is removed; an earlier one stays', async () => {
    const empty = await Journal.open(id('never-sent'));
    empty.close();
    expect((await listJournals(dir)).journals).toEqual([]);

    const first = await Journal.open(id());
    first.recordSent(sent(1));
    first.close();
    const again = await Journal.open(id());
    again.close();
    expect((await listJournals(dir)).journals.map((j) => [j.batch, j.counts])).toEqual([['b1', { done: 0, rejected: 0, uncertain: 1, queued: 0 }]]);
  });

  it('no journals yet: an empty list', async () => {
    expect((await listJournals(dir)).journals).toEqual([]);
    expect(pruneJournals(dir, 0)).toEqual([]);
  });
});
