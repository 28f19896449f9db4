import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/config/atomic.js';
import { DoneKeys } from '../../src/bulk/journal/done.js';
import { DoneFileError } from '../../src/bulk/journal/done-file.js';
import { legacyLineKey } from '../../src/bulk/keys.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'done-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const uuid = (i: number): string => `0b0c4e1a-2f3d-4c5b-8a9e-${i.toString(16).padStart(12, '0')}`;
const key = (n: number): string => `bulk-key-of-request-${n}`;
/** 20,000 requests (the table grows many times), one with a non-UUID id and one without an id. */
const N = Array.from({ length: 20_000 }, (_, i) => 7 * i + 1);
const idOf = (n: number): string | undefined => (n === 8 ? 'not-a-uuid' : n === 15 ? undefined : uuid(n));

describe('done file', () => {
  it('round-trips through its file by identity, with the line and pairing tag each had, at 33 bytes a request', async () => {
    const done = DoneKeys.empty();
    for (const n of N) done.set(key(n), n + 1, idOf(n), n + 100);
    const path = join(dir, 'a.done');
    await writeFileAtomic(path, done.toChunks());
    const header = readFileSync(path, 'utf8').split('\n')[0] as string;
    expect(JSON.parse(header)).toEqual({ v: 3, count: N.length, other: [[1, 'not-a-uuid'], [2, null]] });
    expect(statSync(path).size).toBe(header.length + 1 + 33 * N.length);

    const read = DoneKeys.read(path);
    expect([read.size, read.maxLine]).toEqual([N.length, (N[N.length - 1] as number) + 1]);
    for (const n of N) {
      if (!read.has(key(n)) || read.entryId(key(n)) !== idOf(n)) throw new Error(`request ${n} did not round-trip`);
    }
    expect([read.has(key(2)), read.entryId(key(2))]).toEqual([false, undefined]);
    // None met by this run: each is found at its line by its pairing tag, and by no other tag.
    const earlier = read.earlierLines();
    expect([earlier.size, earlier.at(N[3] as number, (N[3] as number) + 100 - 1), earlier.at((N[3] as number) + 1, (N[3] as number) + 100), earlier.at((N[3] as number) + 1, 0)]).toEqual([
      N.length,
      undefined,
      { entryId: uuid(N[3] as number) },
      undefined,
    ]);
  });

  it('a done file of version 2 (no pairing tags) is read with none: no line of it is taken for an edited one', async () => {
    const done = DoneKeys.empty();
    for (const n of [1, 2, 3]) done.set(key(n), n, uuid(n), 7);
    const path = join(dir, 'a.done');
    await writeFileAtomic(path, done.toChunks());
    // Version 2's layout: the same sections without the pairing tags.
    const whole = readFileSync(path);
    const headerEnd = whole.indexOf(0x0a) + 1;
    const data = whole.subarray(headerEnd);
    const v2 = Buffer.concat([Buffer.from('{"v":2,"count":3,"other":[]}\n'), data.subarray(0, 12 * 3), data.subarray(16 * 3)]);
    writeFileSync(path, v2);
    const read = DoneKeys.read(path);
    expect([1, 2, 3].map((n) => read.entryId(key(n)))).toEqual([uuid(1), uuid(2), uuid(3)]);
    expect([read.earlierLines().size, read.earlierLines().at(2, 7)]).toEqual([3, undefined]);
  });

  it('changes on top of a file are kept and written with the rest; unseen ones are found by line and pairing tag', async () => {
    const done = DoneKeys.empty();
    for (const n of N) done.set(key(n), n, idOf(n), 5);
    const first = join(dir, 'a.done');
    await writeFileAtomic(first, done.toChunks());
    const read = DoneKeys.read(first);
    read.delete(key(1));
    read.set(key(2), 2, uuid(2), 9);
    read.set(key(1), 3, uuid(3), 5);
    const second = join(dir, 'b.done');
    await writeFileAtomic(second, read.toChunks());
    const again = DoneKeys.read(second);
    expect([again.size, again.entryId(key(1)), again.entryId(key(2)), again.entryId(key(N[3] as number))]).toEqual([N.length + 1, uuid(3), uuid(2), uuid(N[3] as number)]);
    for (const n of N) again.see(key(n));
    const earlier = again.earlierLines();
    expect([earlier.size, earlier.at(2, 9), earlier.at(2, 5), earlier.at(3, 5)]).toEqual([1, { entryId: uuid(2) }, undefined, undefined]);
  });

  it('requests added on top of a file, some of its own removed, are written after its entries: other ids renumbered, lines and maxLine kept', async () => {
    const done = DoneKeys.empty(N.length);
    for (const n of N) done.set(key(n), n, idOf(n));
    const first = join(dir, 'a.done');
    await writeFileAtomic(first, done.toChunks());
    const read = DoneKeys.read(first);
    read.delete(key(N[5] as number));
    read.set('added-1', 900_000, 'another-non-uuid', 11);
    read.set('added-2', 3, undefined, 12);
    read.set('added-3', 4, uuid(4));
    read.delete('added-3');
    expect([read.size, read.maxLine]).toEqual([N.length + 1, 900_000]);
    const second = join(dir, 'b.done');
    await writeFileAtomic(second, read.toChunks());
    const header = readFileSync(second, 'utf8').split('\n')[0] as string;
    expect(JSON.parse(header)).toEqual({ v: 3, count: N.length + 1, other: [[1, 'not-a-uuid'], [2, null], [N.length - 1, 'another-non-uuid'], [N.length, null]] });
    const again = DoneKeys.read(second);
    expect([again.size, again.maxLine, again.has(key(N[5] as number)), again.has('added-3'), again.entryId('added-1'), again.has('added-2'), again.entryId(key(N[7] as number))]).toEqual([
      N.length + 1,
      900_000,
      false,
      false,
      'another-non-uuid',
      true,
      uuid(N[7] as number),
    ]);
    for (const n of N) again.see(key(n));
    const earlier = again.earlierLines();
    expect([earlier.size, earlier.at(900_000, 11), earlier.at(3, 12), earlier.at(3, 11)]).toEqual([2, { entryId: 'another-non-uuid' }, { entryId: undefined }, undefined]);
  });

  it('a done file of version 1 (the released one, by line number) is read under the keys it was written with', () => {
    const name = readdirSync('test/fixtures/legacy-journals').find((f) => f.endsWith('.done')) as string;
    copyFileSync(join('test/fixtures/legacy-journals', name), join(dir, name));
    const read = DoneKeys.read(join(dir, name));
    const batch = '2e58c9ff8f74bc7ec93e1c3e32fb1255dbd0c7a1c6e870395d776a28b09ad41b';
    const line = (n: number): Buffer => Buffer.from(JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(n + 6) }));
    expect([1, 2, 3].map((n) => read.entryId(legacyLineKey(batch, n, line(n))))).toEqual([
      '11111111-1111-4111-8111-111111111111',
      '22222222-2222-4222-8222-222222222222',
      '33333333-3333-4333-8333-333333333333',
    ]);
    expect(read.has(legacyLineKey(batch, 2, line(1)))).toBe(false);
  });

  it('a file cut short, or not a done file, is refused', async () => {
    const done = DoneKeys.empty();
    done.set(key(3), 3, uuid(3));
    const path = join(dir, 'a.done');
    await writeFileAtomic(path, done.toChunks());
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 1));
    expect(() => DoneKeys.read(path)).toThrow(DoneFileError);
    expect(() => DoneKeys.read(path)).toThrow(/bytes after its header, not 1 entries/);
    writeFileSync(path, '{"t":"meta"}\n');
    expect(() => DoneKeys.read(path)).toThrow(`${path}: not a done file of version 1 to 3`);
  });
});
