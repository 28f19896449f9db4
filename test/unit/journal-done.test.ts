import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/config/atomic.js';
import { DoneFileError, DoneLines } from '../../src/config/journal-done.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'done-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const uuid = (i: number): string => `0b0c4e1a-2f3d-4c5b-8a9e-${i.toString(16).padStart(12, '0')}`;
const key = (line: number): string => `bulk-key-of-line-${line}`;
/** Every 7th line over three pages of 65,536 lines, one with a non-UUID id and one without an id. */
const LINES = Array.from({ length: 150_000 / 7 }, (_, i) => 7 * i + 1);
const idOf = (line: number): string | undefined => (line === 8 ? 'not-a-uuid' : line === 15 ? undefined : uuid(line));

describe('done file', () => {
  it('round-trips through its file, read page by page in order and again out of order, at 25 bytes a line', async () => {
    const done = DoneLines.empty();
    for (const line of LINES) done.set(line, key(line), idOf(line));
    const path = join(dir, 'a.done');
    await writeFileAtomic(path, done.toChunks());
    const last = LINES[LINES.length - 1] as number;
    const header = readFileSync(path, 'utf8').split('\n')[0] as string;
    expect(JSON.parse(header)).toEqual({ v: 1, lines: last + 1, count: LINES.length, other: [[8, 'not-a-uuid'], [15, null]] });
    expect(statSync(path).size).toBe(header.length + 1 + 25 * (last + 1));

    const read = DoneLines.read(path);
    expect([read.size, read.maxLine]).toEqual([LINES.length, last]);
    for (const line of LINES) {
      if (!read.has(line, key(line)) || read.entryId(line) !== idOf(line)) throw new Error(`line ${line} did not round-trip`);
    }
    // Back to the first page after the last two were read (the first was let go by then), and lines never set.
    expect([read.has(1, key(1)), read.entryId(1), read.has(2, key(2)), read.has(1, key(2)), read.has(last + 7, key(last + 7))]).toEqual([true, uuid(1), false, false, false]);
  });

  it('changes on top of a file are kept and written with the rest', async () => {
    const done = DoneLines.empty();
    for (const line of LINES) done.set(line, key(line), idOf(line));
    const first = join(dir, 'a.done');
    await writeFileAtomic(first, done.toChunks());
    const read = DoneLines.read(first);
    read.delete(1);
    read.set(2, 'another-key', uuid(2));
    read.set(200_000, key(200_000), uuid(200_000));
    // Pages read after the changes do not drop them.
    for (const line of LINES) read.has(line, key(line));
    const second = join(dir, 'b.done');
    await writeFileAtomic(second, read.toChunks());
    const again = DoneLines.read(second);
    expect([again.size, again.maxLine, again.has(1, key(1)), again.entryId(2), again.has(2, 'another-key'), again.entryId(200_000), again.entryId(LINES[3] as number)]).toEqual([
      LINES.length + 1,
      200_000,
      false,
      uuid(2),
      true,
      uuid(200_000),
      uuid(LINES[3] as number),
    ]);
  });

  it('a file cut short, or not a done file, is refused', async () => {
    const done = DoneLines.empty();
    done.set(3, key(3), uuid(3));
    const path = join(dir, 'a.done');
    await writeFileAtomic(path, done.toChunks());
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 1));
    expect(() => DoneLines.read(path)).toThrow(DoneFileError);
    expect(() => DoneLines.read(path)).toThrow(/bytes where its header says/);
    writeFileSync(path, '{"t":"meta"}\n');
    expect(() => DoneLines.read(path)).toThrow(`${path}: not a done file of version 1`);
  });
});
