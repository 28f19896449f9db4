import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { SymlinkError } from '../../src/config/own-file.js';
import type { RawLine } from '../../src/bulk/input-lines.js';
import { MAX_LINE_BYTES, NotTextError, splitLines } from '../../src/bulk/input-lines.js';
import { readInput } from '../../src/bulk/input.js';
import type { RawRecord } from '../../src/bulk/csv/records.js';
import { CsvRecords } from '../../src/bulk/csv/records.js';
import { hashFile } from '../../src/bulk/keys.js';
import { spoolInput } from '../../src/bulk/spool.js';

const dir = mkdtempSync(join(tmpdir(), 'bulk-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stream handing on `data` in pieces of the given sizes (cycled). */
function inPieces(data: Buffer, sizes: readonly number[]): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length] as number;
    pieces.push(data.subarray(at, at + size));
    at += size;
  }
  return Readable.from(pieces, { objectMode: false });
}

/** The input's physical lines (NDJSON), or its CSV records gathered from them. */
async function split(source: Readable | string, csv: boolean): Promise<Array<[number, string | undefined]>> {
  const out: Array<[number, string | undefined]> = [];
  const lineBreak = { byte: 0x0a };
  const records = new CsvRecords(undefined, () => lineBreak.byte);
  const add = (raw: { line: number; bytes: Buffer | undefined }): number => out.push([raw.line, raw.bytes?.toString('utf8')]);
  for await (const batch of splitLines(source, { csv, name: 'in', lineBreak })) {
    for (const raw of batch) {
      if (!csv) add(raw);
      else {
        const found: RawRecord[] = [];
        records.push(raw, found);
        found.forEach(add);
      }
    }
  }
  const rest: RawRecord[] = [];
  records.end(rest);
  rest.forEach(add);
  return out;
}

describe('splitting input into lines', () => {
  it('gives the same lines (and line numbers) however the input is cut into reads', async () => {
    const csv = Buffer.from('a,b\n"x ""q"" y",2\n"multi\nline\n""end""",3\n\n4,"q,""\n"""\nplain,"a""b"\r\n5,6');
    const whole = await split(inPieces(csv, [csv.length]), true);
    expect(whole).toEqual([
      [1, 'a,b'],
      [2, '"x ""q"" y",2'],
      [3, '"multi\nline\n""end""",3'],
      [6, ''],
      [7, '4,"q,""\n"""'],
      [9, 'plain,"a""b"\r'],
      [10, '5,6'],
    ]);
    // Every cut, through `""` pairs, line breaks and CRLFs alike.
    for (const sizes of [[1], [2], [3], [1, 2, 5], [7, 1], [13]]) expect(await split(inPieces(csv, sizes), true)).toEqual(whole);
    const ndjson = Buffer.from('{"a":1}\n\n{"b":"x\\ny"}\r\n{"c":3}');
    const lines = await split(inPieces(ndjson, [ndjson.length]), false);
    expect(lines).toEqual([
      [1, '{"a":1}'],
      [2, ''],
      [3, '{"b":"x\\ny"}\r'],
      [4, '{"c":3}'],
    ]);
    for (const sizes of [[1], [3, 1], [5]]) expect(await split(inPieces(ndjson, sizes), false)).toEqual(lines);
  });

  it('a BOM at the start of the input is not part of the first line', async () => {
    expect(await split(inPieces(Buffer.from('\uFEFFa,b\n1,2\n'), [64]), true)).toEqual([
      [1, 'a,b'],
      [2, '1,2'],
    ]);
  });

  it('a line over 1 MiB is dropped as it is read and skipped to its end; the lines after it are read', async () => {
    const long = Buffer.alloc(MAX_LINE_BYTES + 1, 0x78);
    const exact = Buffer.alloc(MAX_LINE_BYTES, 0x79);
    const data = Buffer.concat([Buffer.from('{"a":1}\n'), long, Buffer.from('\n'), exact, Buffer.from('\n{"b":2}\n'), long]);
    const seen: RawLine[] = [];
    for await (const batch of splitLines(inPieces(data, [65_536]), { csv: false, name: 'in' })) seen.push(...batch);
    expect(seen.map((raw) => [raw.line, raw.bytes?.length])).toEqual([
      [1, 7],
      [2, undefined],
      [3, MAX_LINE_BYTES],
      [4, 7],
      [5, undefined],
    ]);
    // As the bulk engine sees them: one bad line each, with its line number.
    const path = join(dir, 'long.ndjson');
    writeFileSync(path, data);
    const items = [];
    for await (const batch of readInput(path, 'ndjson', { bareIds: false })) items.push(...batch);
    expect(items.map((item) => [item.line, item.problem])).toEqual([
      [1, undefined],
      [2, 'is too long (over 1 MiB): skipped to its end'],
      [3, expect.stringMatching(/^is not valid JSON/)],
      [4, undefined],
      [5, 'is too long (over 1 MiB): skipped to its end'],
    ]);
  });

  it('a CSV record over 1 MiB (a quoted cell running on) is not one record: its first line is bad, the lines after it are read alone', async () => {
    const path = join(dir, 'long.csv');
    const third = MAX_LINE_BYTES / 2;
    writeFileSync(path, `a,b\n1,"${'x'.repeat(third)}\n${'y'.repeat(third)}\n${'z'.repeat(third)}"\n2,3\n`);
    const items = [];
    for await (const batch of readInput(path, 'csv', { bareIds: false })) items.push(...batch);
    expect(items.map((item) => [item.line, item.record, item.problem])).toEqual([
      [2, undefined, 'is not valid CSV (the quote opened in column "b" is not closed on this line)'],
      [3, undefined, 'has 1 fields where the header has 2'],
      [4, undefined, 'is not valid CSV (a quote inside an unquoted field)'],
      [5, { a: '2', b: '3' }, undefined],
    ]);
  });

  it('a NUL byte in the first read refuses the input before any line is handed on', async () => {
    const handed: RawLine[] = [];
    const error = await (async () => {
      for await (const batch of splitLines(inPieces(Buffer.from('{"a":1}\n{"b":2}\n\0\0'), [64]), { csv: false, name: 'in.ndjson' })) handed.push(...batch);
    })().catch((e: unknown) => e);
    expect(handed).toEqual([]);
    expect(error).toBeInstanceOf(NotTextError);
    expect((error as Error).message).toBe('in.ndjson holds NUL bytes: it is not a text file (NDJSON or CSV); nothing was sent');
  });

  it('a NUL byte later hands on the lines before it, then ends the reading at its line', async () => {
    const handed: Array<[number, string | undefined]> = [];
    const error = await (async () => {
      const data = Buffer.from('{"a":1}\n{"b":2}\n{"c":3}\n{"d":\0}\n{"e":5}\n');
      for await (const batch of splitLines(inPieces(data, [8, 100]), { csv: false, name: 'in.ndjson' })) handed.push(...batch.map((raw): [number, string | undefined] => [raw.line, raw.bytes?.toString()]));
    })().catch((e: unknown) => e);
    expect(handed).toEqual([
      [1, '{"a":1}'],
      [2, '{"b":2}'],
      [3, '{"c":3}'],
    ]);
    expect(error).toBeInstanceOf(NotTextError);
    expect((error as Error).message).toBe(
      'in.ndjson:4: holds a NUL byte: the input is not text from here on; reading stopped at this line (the lines before it were handled, none after it)',
    );
  });

  it('/dev/zero is refused at its first read', async () => {
    const error = await split('/dev/zero', false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotTextError);
    expect((error as NotTextError).line).toBeUndefined();
  });

  it('an abort ends a read that waits on a slow pipe: the lines end there, without an error', async () => {
    const pipe = new PassThrough();
    const controller = new AbortController();
    const lines = splitLines(pipe, { csv: false, name: '-', signal: controller.signal });
    pipe.write('{"a":1}\n');
    expect((await lines.next()).value).toEqual([{ line: 1, bytes: Buffer.from('{"a":1}') }]);
    // Nothing more is written: the next read waits until the abort ends it.
    const next = lines.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(pipe.destroyed).toBe(true);
  });
});

describe('hashing a file for its batch identity', () => {
  it('stops at an abort (Ctrl-C, SIGTERM) instead of reading on', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(hashFile('/dev/zero', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the standard-input spool', () => {
  it('refuses input whose first read holds a NUL byte, and leaves no partial file', async () => {
    const data = join(dir, 'nul');
    const error = await spoolInput(Readable.from([Buffer.from([0x7b, 0x00, 0x7d])]), data, '-').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotTextError);
    expect(readdirSync(join(data, 'spool'))).toEqual([]);
  });

  it('an abort ends the copy of a slow pipe and removes the partial file', async () => {
    const data = join(dir, 'abort');
    const pipe = new PassThrough();
    const controller = new AbortController();
    const spooling = spoolInput(pipe, data, '-', controller.signal).catch((e: unknown) => e);
    pipe.write('{"a":1}\n');
    controller.abort();
    expect(((await spooling) as Error).name).toBe('AbortError');
    expect(readdirSync(join(data, 'spool'))).toEqual([]);
  });

  it('refuses a symbolic link where the spool file goes: its target is untouched, no partial file left', async () => {
    const data = join(dir, 'link');
    mkdirSync(join(data, 'spool'), { recursive: true });
    const text = '{"a":1}\n';
    const hash = createHash('sha256').update(text).digest('hex');
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'precious');
    symlinkSync(target, join(data, 'spool', `${hash}.input`));
    const error = await spoolInput(Readable.from([Buffer.from(text)]), data, '-').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SymlinkError);
    expect((error as Error).message).toBe(`${join(data, 'spool', `${hash}.input`)} is a symbolic link; refusing to write through it`);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(lstatSync(join(data, 'spool', `${hash}.input`)).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(data, 'spool'))).toEqual([`${hash}.input`]);
    expect(existsSync(join(data, 'spool', `${hash}.input`))).toBe(true);
  });
});
