/**
 * Issue 27: `--continue` pairs lines with their batch by content, never by position; a line is
 * edited only where the batch's line at the same number was about the same parcel (courier,
 * country, postal code and number; for events and attempts, the same entry_id) and other fields differ.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchChangedError, changedHint } from '../../src/bulk/changed.js';
import { SymlinkError } from '../../src/config/own-file.js';
import type { ImportOptions } from '../../src/bulk/import.js';
import { targetJournals } from '../../src/bulk/journal/paths.js';
import { runImport } from '../../src/bulk/import.js';
import { pairTag } from '../../src/bulk/pairing.js';
import type { ResultLine, Send } from '../../src/bulk/types.js';
import { retried } from '../helpers/bulk-fixtures.js';
import { virtualTiming } from '../helpers/timing.js';

const root = mkdtempSync(join(tmpdir(), 'bulk-pairing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(root, 'data-'));
});

/** A service that creates a parcel for every new key and replays a known one. */
function service(): Send & { created: string[] } {
  const byKey = new Map<string, string>();
  const created: string[] = [];
  const send = async (request: Parameters<Send>[0]) => {
    const known = byKey.get(request.idempotencyKey);
    if (known !== undefined) return { status: 201, entryId: known, replayed: true };
    const id = `0b0c4e1a-2f3d-4c5b-8a9e-${String(created.length + 1).padStart(12, '0')}`;
    byKey.set(request.idempotencyKey, id);
    created.push(Buffer.from(request.body).toString());
    return { status: 201, entryId: id, replayed: false };
  };
  return Object.assign(retried(send), { created });
}

const NOW = 1_763_884_800;
const HEADER = 'courier,country,postal_code,number,parcel_weight';
const row = (number: string, weight = 1, postal = '1234AB'): string => `A-BIKE,NL,${postal},${number},${weight}`;

function write(name: string, lines: string[]): string {
  const path = join(dataDir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function run(input: string, send: Send, more: Partial<ImportOptions> = {}) {
  const results: ResultLine[] = [];
  const summary = await runImport({ kind: 'create', input, dataDir, target: 'test|pairing', send, timing: virtualTiming(), random: () => 0.5, emit: (r) => void results.push(r), ...more });
  return { results, summary };
}

async function refusal(input: string, send: Send, more: Partial<ImportOptions> = {}): Promise<BatchChangedError> {
  const error = await run(input, send, more).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BatchChangedError);
  return error as BatchChangedError;
}

describe('the pairing tag', () => {
  const fields = (more: Record<string, unknown>) => ({ fields: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '7', ...more }, parcel: undefined });

  it('a create line: its courier, country, postal code and number, whatever else it holds', () => {
    const tag = pairTag('create', fields({}));
    expect(pairTag('create', fields({ parcel_weight: 3, service_type: 2 }))).toBe(tag);
    for (const other of [{ number: '8' }, { postal_code: '1234AC' }, { country: 'BE' }, { courier: 'B-VAN' }]) expect(pairTag('create', fields(other))).not.toBe(tag);
    expect(tag).not.toBe(0);
  });

  it('an event or attempt line: its parcel', () => {
    const about = (parcel: string, status: number) => pairTag('events', { fields: { status }, parcel });
    expect(about('p-1', 1)).toBe(about('p-1', 2));
    expect(about('p-1', 1)).not.toBe(about('p-2', 1));
  });
});

describe('--continue pairs by content', () => {
  it("a new day's file: its leftovers replay, every other line is new, none is edited", async () => {
    const send = service();
    const input = write('export.csv', [HEADER, ...Array.from({ length: 10 }, (_, i) => row(String(i + 1)))]);
    await run(input, send);
    // Tuesday: two of Monday's lines (at other numbers), then new parcels at Monday's numbers with other houses.
    write('export.csv', [HEADER, row('9'), row('10'), ...Array.from({ length: 8 }, (_, i) => row(String(100 + i)))]);
    const refused = await refusal(input, send);
    expect(refused.change).toMatchObject({ lines: 10, matched: 2, edited: 0 });
    const { results, summary } = await run(input, send, { continueBatch: true });
    expect(results.map((r) => r.outcome)).toEqual(['already_done', 'already_done', ...Array<string>(8).fill('created')]);
    expect(results.filter((r) => r.earlier_entry_id !== undefined)).toEqual([]);
    expect([summary.created, summary.edited.size, send.created.length]).toEqual([8, 0, 18]);
  });

  it('the same parcel at the same number with another weight is edited, named with what its earlier version created; the same parcel at another number is new', async () => {
    const send = service();
    const input = write('edit.csv', [HEADER, row('1'), row('2'), row('3')]);
    const first = await run(input, send);
    write('edit.csv', [HEADER, row('1'), row('2', 5), row('4'), row('3', 9)]);
    const refused = await refusal(input, send);
    expect(refused.change).toMatchObject({ lines: 4, matched: 1, edited: 1 });
    const { results, summary } = await run(input, send, { continueBatch: true });
    expect(results.map((r) => [r.line, r.outcome, r.earlier_entry_id])).toEqual([
      [2, 'already_done', undefined],
      [3, 'created', first.results[1]?.entry_id],
      [4, 'created', undefined],
      [5, 'created', undefined],
    ]);
    expect([...summary.edited.keys()]).toEqual([3]);
  });

  it('a confirmation kept in the compact done file keeps its pairing tag: an edit found after compaction', async () => {
    const send = service();
    const input = write('c.csv', [HEADER, row('1'), row('2')]);
    const first = await run(input, send);
    // Unchanged re-run: compacted already after the first; read from the done file now.
    await run(input, send);
    write('c.csv', [HEADER, row('1'), row('2', 4)]);
    const { results } = await run(input, send, { continueBatch: true });
    expect(results[1]).toMatchObject({ line: 3, outcome: 'created', earlier_entry_id: first.results[1]?.entry_id });
  });

  it('events: the same entry_id at the same line is edited; another parcel there is new', async () => {
    const send = service();
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const input = write('events.csv', ['entry_id,status', `${ids[0]},1`, `${ids[1]},1`]);
    const at = { kind: 'events' as const, defaults: { occurred_at: NOW }, now: () => NOW };
    expect((await run(input, send, at)).summary.created).toBe(2);
    write('events.csv', ['entry_id,status', `${ids[0]},2`, `33333333-3333-4333-8333-333333333333,1`]);
    const { results } = await run(input, send, { ...at, continueBatch: true });
    expect(results.map((r) => [r.line, r.earlier_entry_id !== undefined])).toEqual([
      [2, true],
      [3, false],
    ]);
  });
});

describe('the refusal', () => {
  const change = { input: 'export.csv', batch: 'b1', lastRan: 0, lines: 120, matched: 20, unconfirmed: 0, edited: 0 };
  const command = (flag: string) => `parcels create --from export.csv ${flag}`;

  it('a file that matches in part: --continue first, with what each way does in numbers', () => {
    expect(changedHint(change, command)).toBe(
      '`parcels create --from export.csv --continue` sends the 100 new lines and replays the 20 (recommended: nothing is created twice); `parcels create --from export.csv --new-batch` imports all 120 lines as a new batch (the 20 would be created again)',
    );
  });

  it('edited lines are counted in what --continue sends', () => {
    expect(changedHint({ ...change, matched: 118, edited: 2 }, command)).toBe(
      '`parcels create --from export.csv --continue` sends the 2 new lines (2 of them edited since that batch created them at the same line: their earlier parcels stay as they are) and replays the 118 (recommended: nothing is created twice); `parcels create --from export.csv --new-batch` imports all 120 lines as a new batch (the 118 would be created again)',
    );
  });

  it('lines the batch sent without a confirmation are resent with their keys: continuing stays first', () => {
    expect(changedHint({ ...change, matched: 0, unconfirmed: 3 }, command)).toBe(
      '`parcels create --from export.csv --continue` sends the 117 new lines, resends the 3 it left unconfirmed with the same keys (recommended: nothing is created twice); `parcels create --from export.csv --new-batch` imports all 120 lines as a new batch',
    );
  });

  it('a file that matches nothing: a new batch first', () => {
    expect(changedHint({ ...change, matched: 0 }, command)).toBe(
      'nothing in it matches that batch: `parcels create --from export.csv --new-batch` imports all 120 lines as a new batch (recommended); `parcels create --from export.csv --continue` sends all 120 lines into batch b1',
    );
  });
});

describe("a path's batch is its newest", () => {
  it('after --new-batch a plain run of the path compares with (and continues) the new batch, not the first', async () => {
    const send = service();
    const input = write('daily.csv', [HEADER, row('1'), row('2')]);
    const monday = await run(input, send);
    write('daily.csv', [HEADER, row('2'), row('3')]);
    // Row 2 is Monday's: as a new batch it is created again only when asked to (the created index, issue 27).
    const tuesday = await run(input, send, { newBatch: true, matchedLines: { flag: 'create', setting: 'refuse' } });
    expect(tuesday.summary.batch).not.toBe(monday.summary.batch);
    const plain = await run(input, send);
    expect([plain.summary.batch, plain.summary.created, plain.summary.alreadyDone]).toEqual([tuesday.summary.batch, 0, 2]);
    write('daily.csv', [HEADER, row('3'), row('4')]);
    const refused = await refusal(input, send);
    expect(refused.change).toMatchObject({ batch: tuesday.summary.batch, lines: 2, matched: 1 });
    const continued = await run(input, send, { continueBatch: true });
    expect([continued.summary.batch, continued.summary.created, continued.summary.alreadyDone]).toEqual([tuesday.summary.batch, 1, 1]);
    // 1, 2 (Monday), 2 and 3 (Tuesday's new batch), 4.
    expect(send.created).toHaveLength(5);
  });
});

describe('the newest-batch record', () => {
  it('is one small file per path, never read or written through a symbolic link', async () => {
    const send = service();
    const input = write('daily.csv', [HEADER, row('1')]);
    await run(input, send);
    write('daily.csv', [HEADER, row('2')]);
    const tuesday = await run(input, send, { newBatch: true });
    const dir = join(targetJournals(dataDir, 'test|pairing'), 'newest');
    const [name] = readdirSync(dir);
    const record = join(dir, name as string);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ v: 1, kind: 'create', path: input, batch: tuesday.summary.batch, at: expect.any(Number) });

    const elsewhere = write('elsewhere.json', ['{}']);
    rmSync(record);
    symlinkSync(elsewhere, record);
    await expect(run(input, send)).rejects.toThrow(SymlinkError);
    write('daily.csv', [HEADER, row('3')]);
    await expect(run(input, send, { newBatch: true })).rejects.toThrow(SymlinkError);
    expect(readFileSync(elsewhere, 'utf8')).toBe('{}\n');
    expect(send.created).toHaveLength(2);
  });
});
