import { closeSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SymlinkError, openOwnFile } from '../../src/config/own-file.js';
import { RECORD_BYTES, batchesPath, decodeRecord, encodeRecord, forEachRecordChunk, indexDir, readBatches, recordsPath } from '../../src/bulk/created-index/file.js';
import { findEarlierMatches } from '../../src/bulk/created-index/match.js';
import { ensureIndex } from '../../src/bulk/created-index/migrate.js';
import { forgetPrunedBatches } from '../../src/bulk/created-index/prune.js';
import { previewEarlierBatches } from '../../src/bulk/created-index/run.js';
import { LineTable } from '../../src/bulk/created-index/table.js';
import { tagOfDigest } from '../../src/bulk/tag-table.js';
import { CreatedIndexWriter } from '../../src/bulk/created-index/writer.js';
import type { BuildContext } from '../../src/bulk/build.js';
import { lineRequest } from '../../src/bulk/build.js';
import type { InputLine } from '../../src/bulk/input.js';
import { Journal } from '../../src/bulk/journal/journal.js';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { requestKey } from '../../src/bulk/keys.js';

const root = mkdtempSync(join(tmpdir(), 'created-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(root, 'data-'));
});

const TARGET = 'default http://127.0.0.1:1';
const BUILD: BuildContext = { kind: 'create', overrides: {}, now: () => 1_800_000_000 };
const ENTRY = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function record(number: number, identity?: string): InputLine {
  const fields = { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(number) };
  return { line: number + 1, bytes: Buffer.from(JSON.stringify(fields)), record: fields, json: true, ...(identity === undefined ? {} : { identity }) };
}

function digestOf(input: InputLine): string {
  const request = lineRequest(input, BUILD);
  if (!request.ok) throw new Error('not a request');
  return request.digest;
}

/** An earlier batch on the target that created `inputs` (line numbers as given, occurrences counted). */
function created(batch: string, inputs: InputLine[], input = `/data/${batch}.csv`): void {
  const writer = new CreatedIndexWriter(dataDir, TARGET, { batch: `create~${batch}`, input }, () => 1_800_000_000_000);
  const seen = new Map<string, number>();
  for (const line of inputs) {
    const digest = digestOf(line);
    const occurrence = seen.get(digest) ?? 0;
    seen.set(digest, occurrence + 1);
    writer.add({ digest, occurrence, identity: line.identity, line: line.line, entryId: ENTRY(line.line) });
  }
  writer.close();
}

async function match(inputs: InputLine[], batch = 'today', journal?: Journal) {
  return findEarlierMatches({ dataDir, target: TARGET, journalBatch: `create~${batch}`, batch, lines: async function* () { yield inputs; }, build: BUILD, journal });
}

const range = (from: number, to: number): InputLine[] => Array.from({ length: to - from + 1 }, (_, i) => record(from + i));

describe('the line table', () => {
  it('numbers identical lines by occurrence; each earlier record claims the next one', () => {
    const table = new LineTable();
    const [high, low] = tagOfDigest(digestOf(record(1)));
    for (const position of [4, 9, 12]) table.add(high, low, position);
    expect([table.claim(high, low), table.claim(high, low), table.claim(high, low), table.claim(high, low)]).toEqual([4, 9, 12, -1]);
    expect(table.claim(high ^ 1, low)).toBe(-1);
  });

  it('keeps a million distinct lines in typed arrays of ~27 MB when sized for them; grows when not', () => {
    const table = new LineTable(1_000_000);
    for (let i = 0; i < 1_000_000; i++) table.add(Math.imul(i, 0x9e3779b1) >>> 0, i, i);
    expect(table.size).toBe(1_000_000);
    const bytes = (table as unknown as { slots: Uint32Array }).slots.byteLength;
    expect(bytes).toBeLessThan(28 * 1024 * 1024);
    for (const i of [0, 1, 499_999, 999_999]) expect(table.claim(Math.imul(i, 0x9e3779b1) >>> 0, i)).toBe(i);
    const grown = new LineTable();
    for (let i = 0; i < 100_000; i++) grown.add(i, i, i);
    for (const i of [0, 77_777, 99_999]) expect(grown.claim(i, i)).toBe(i);
  });
});

describe('the index files', () => {
  it('a record round-trips in 40 bytes, its UUID packed', () => {
    const buffer = Buffer.alloc(RECORD_BYTES);
    const entry = { kind: 1, high: 0xdeadbeef, low: 7, occurrence: 2, batch: 3, line: 41, at: 1_800_000_000, entryId: ENTRY(41) } as const;
    encodeRecord(entry, buffer);
    expect(decodeRecord(buffer)).toEqual(entry);
    encodeRecord({ ...entry, entryId: 'not-a-uuid' }, buffer);
    expect(decodeRecord(buffer)?.entryId).toBeUndefined();
  });

  it('a partial last record (kill -9 mid-write) is completed with a filler, so later records stay aligned', () => {
    created('monday', range(1, 3));
    const path = recordsPath(indexDir(dataDir, TARGET));
    const fd = openOwnFile(path, 'append');
    writeSync(fd, Buffer.alloc(13, 0xff));
    closeSync(fd);
    created('tuesday', range(4, 5));
    expect(statSync(path).size % RECORD_BYTES).toBe(0);
    const lines: number[] = [];
    forEachRecordChunk(indexDir(dataDir, TARGET), (chunk, count) => {
      for (let i = 0; i < count; i++) {
        const entry = decodeRecord(chunk, i * RECORD_BYTES);
        if (entry !== undefined) lines.push(entry.line);
      }
    });
    expect(lines).toEqual([2, 3, 4, 5, 6]);
    expect([...readBatches(indexDir(dataDir, TARGET)).live.values()].map((b) => b.batch)).toEqual(['create~monday', 'create~tuesday']);
  });

  it('a symbolic link in place of the index is refused, and what it points at is untouched', async () => {
    const dir = indexDir(dataDir, TARGET);
    mkdirSync(dir, { recursive: true });
    const elsewhere = join(dataDir, 'elsewhere');
    writeFileSync(elsewhere, 'precious');
    symlinkSync(elsewhere, recordsPath(dir));
    expect(() => created('monday', range(1, 2))).toThrow(SymlinkError);
    await expect(match(range(1, 2))).rejects.toThrow(SymlinkError);
    expect(readFileSync(elsewhere, 'utf8')).toBe('precious');
  });

  it('a symbolic link in place of the batch list is refused', () => {
    const dir = indexDir(dataDir, TARGET);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dataDir, 'elsewhere'), '');
    symlinkSync(join(dataDir, 'elsewhere'), batchesPath(dir));
    expect(() => created('monday', range(1, 2))).toThrow(SymlinkError);
  });
});

describe('matching an input against earlier batches', () => {
  it('nothing earlier: the input is not even read', async () => {
    let read = false;
    const matches = await findEarlierMatches({ dataDir, target: TARGET, journalBatch: 'create~x', batch: 'x', lines: async function* () { read = true; yield []; }, build: BUILD, journal: undefined });
    expect(matches).toBeUndefined();
    expect(read).toBe(false);
  });

  it('a copy: 95% of the lines match one batch in order', async () => {
    created('monday', range(1, 40));
    const matches = await match([...range(1, 39), record(100)]);
    expect(matches?.copy?.id).toBe('monday');
    expect(matches?.copy?.inOrder).toBe(39);
    expect(matches?.dataLines).toBe(40);
    // The same lines shuffled are not "in order": counted as matches, not as a copy.
    const shuffled = await match([...range(21, 40), ...range(1, 20)]);
    expect(shuffled?.copy).toBeUndefined();
    expect(shuffled?.matched).toBe(40);
  });

  it('counts per batch, the batch with most lines first; skipped items name the earlier line and parcel', async () => {
    created('monday', range(1, 10), '/data/monday.csv');
    created('tuesday', range(11, 20), '/data/tuesday.csv');
    const matches = await match([record(50), record(12), record(3), record(13), record(51)]);
    expect(matches?.byBatch.map((b) => [b.id, b.lines, b.batch.input])).toEqual([
      ['tuesday', 2, '/data/tuesday.csv'],
      ['monday', 1, '/data/monday.csv'],
    ]);
    expect(matches?.skip(0, 51, 'skip')).toBeUndefined();
    expect(matches?.skip(2, 4, 'create')).toBeUndefined();
    expect(matches?.skip(2, 4, 'skip')).toEqual({ kind: 'skipped', line: 4, entryId: ENTRY(4), matched: { batch: 'monday', line: 4 }, reason: 'the same request was created by batch monday (line 4)' });
    matches?.close();
  });

  it('identities: a value created before is matched whatever the address; a new one is not, even at a repeated address', async () => {
    created('monday', [record(1, 'A1'), record(2, 'A2')]);
    const matches = await match([record(2, 'A2'), record(1, 'B1')]);
    expect(matches?.identity).toBe(1);
    expect(matches?.matched).toBe(0);
    expect(matches?.skip(0, 3, 'refuse')).toMatchObject({ kind: 'skipped', entryId: ENTRY(3), reason: 'its identity value was created by batch monday (line 3)' });
    expect(matches?.skip(1, 2, 'refuse')).toBeUndefined();
    matches?.close();
  });

  it("this batch's own records and journal are not an earlier batch's", async () => {
    created('today', range(1, 5));
    expect(await match(range(1, 5))).toBeUndefined();
    created('monday', range(1, 5));
    // Lines this batch's journal holds replay as already done: not matched.
    const open = () => Journal.open({ dir: dataDir, target: TARGET, batch: 'create~today', input: '-', kind: 'create' });
    const earlier = await open();
    for (const input of range(1, 3)) earlier.recordDone(requestKey('create', 'today', digestOf(input), 0), input.line, 201, ENTRY(input.line));
    earlier.close();
    const journal = await open();
    const matches = await match(range(1, 5), 'today', journal);
    journal.close();
    expect(matches?.matched).toBe(2);
  });

  it('for --check: what the run would refuse or skip, without sending', async () => {
    created('monday', range(1, 10));
    const copy = await previewEarlierBatches({ dataDir, target: TARGET, journalBatch: 'create~x', batch: 'x', lines: async function* () { yield range(1, 10); }, build: BUILD, journal: undefined, input: 'x.csv', flag: undefined, setting: 'skip' });
    expect(copy.refusal?.message).toMatch(/^x\.csv is a copy of batch monday \(\/data\/monday\.csv, ran 2027-01-15T08:00:00Z\): 10 of its 10 lines \(100%\) match/);
    const some = await previewEarlierBatches({ dataDir, target: TARGET, journalBatch: 'create~x', batch: 'x', lines: async function* () { yield [...range(9, 10), ...range(50, 60)]; }, build: BUILD, journal: undefined, input: 'x.csv', flag: undefined, setting: 'skip' });
    expect(some.refusal).toBeUndefined();
    expect(some.skipped).toBe(2);
    copy.matches?.close();
    some.matches?.close();
  });
});

describe('prune', () => {
  it('a pruned batch is forgotten: its records ignored and dropped, its number never given again', async () => {
    created('monday', range(1, 10));
    created('tuesday', range(11, 20));
    const dir = indexDir(dataDir, TARGET);
    expect(forgetPrunedBatches([journalPath(dataDir, TARGET, 'create~monday'), join(dataDir, 'spool', 'x.input')])).toBe(1);
    expect(statSync(recordsPath(dir)).size).toBe(10 * RECORD_BYTES);
    expect((await match(range(1, 10)))?.matched ?? 0).toBe(0);
    expect((await match(range(11, 20)))?.copy?.id).toBe('tuesday');
    created('wednesday', range(21, 22));
    expect([...readBatches(dir).live.values()].map((b) => [b.n, b.batch])).toEqual([
      [2, 'create~tuesday'],
      [3, 'create~wednesday'],
    ]);
  });
});

describe('migration from the journals already there', () => {
  it("a target with history is covered: a journal's confirmed creates, from its sent records", async () => {
    const built = lineRequest(record(1), BUILD);
    const createPath = built.ok ? built.path : '';
    const journal = await Journal.open({ dir: dataDir, target: TARGET, batch: 'create~old', input: '/data/old.csv', kind: 'create' });
    for (const input of range(1, 4)) {
      const key = requestKey('create', 'old', digestOf(input), 0);
      journal.recordSent({ line: input.line, key, method: 'POST', path: createPath, body: JSON.stringify(input.record), at: 1 });
      if (input.line !== 4) journal.recordDone(key, input.line, 201, ENTRY(input.line));
    }
    journal.close();
    await ensureIndex(dataDir, TARGET);
    expect(existsSync(recordsPath(indexDir(dataDir, TARGET)))).toBe(true);
    const matches = await match(range(1, 4));
    expect(matches?.byBatch.map((b) => [b.id, b.lines])).toEqual([['old', 3]]);
    expect(matches?.skip(0, 2, 'skip')?.entryId).toBe(ENTRY(2));
    expect(matches?.skip(2, 4, 'skip')).toBeUndefined();
    matches?.close();
  });
});
