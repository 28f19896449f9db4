import { createHash } from 'node:crypto';
import { idsFromLines } from '../../src/track/ids.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputLine } from '../../src/bulk/input.js';
import { inputFormat } from '../../src/bulk/input-format.js';
import { readInput } from '../../src/bulk/input.js';
import { hashFile } from '../../src/bulk/keys.js';
import { spoolInput } from '../../src/bulk/spool.js';
import { UsageError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'bulk-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function collect(batches: AsyncIterable<InputLine[]>): Promise<InputLine[]> {
  const all: InputLine[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

const ID = '0b0c4e1a-2f3d-4c5b-8a9e-1f2e3d4c5b6a';

describe('input format', () => {
  it('comes from --format, else the extension; an unknown extension asks for the flag', () => {
    expect(inputFormat('a.csv', undefined)).toBe('csv');
    expect(inputFormat('a.CSV', 'ndjson')).toBe('ndjson');
    expect(inputFormat('a.jsonl', undefined)).toBe('ndjson');
    expect(inputFormat('ids.txt', undefined)).toBe('ndjson');
    expect(() => inputFormat('a.xlsx', undefined)).toThrow(UsageError);
    expect(() => inputFormat('a.xlsx', undefined)).toThrow('cannot tell the format of "a.xlsx" from its extension');
  });
});

describe('NDJSON reading', () => {
  it('numbers lines as in the file, skips blank lines, keeps each line\'s exact bytes (no CR, no BOM)', async () => {
    const path = file('a.ndjson', `\uFEFF{"a":1}\r\n\n  \n{"b": 2}\nnot json\n[1]\n${ID}\n{"c":3}`);
    const lines = await collect(readInput(path, 'ndjson', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.bytes.toString(), l.record, l.json, l.problem])).toEqual([
      [1, '{"a":1}', { a: 1 }, true, undefined],
      [4, '{"b": 2}', { b: 2 }, true, undefined],
      [5, 'not json', undefined, false, expect.stringMatching(/^is not valid JSON \(/)],
      [6, '[1]', undefined, false, 'must be a JSON object'],
      [7, ID, undefined, false, expect.stringMatching(/^is not valid JSON/)],
      [8, '{"c":3}', { c: 3 }, true, undefined],
    ]);
  });

  it('a bare id line stands for {"entry_id": id} for events and attempts', async () => {
    const path = file('ids.txt', `${ID}\n  ${ID.toUpperCase()}  \n`);
    const lines = await collect(readInput(path, 'ndjson', { bareIds: true }));
    expect(lines.map((l) => l.record)).toEqual([{ entry_id: ID }, { entry_id: ID.toUpperCase() }]);
  });

  it('read as track --from reads its ids: a mistyped id is said as such, a broken object as broken JSON', async () => {
    const path = file('ids-bad.txt', `not-an-id\n{oops\n[1]\n`);
    const lines = await collect(readInput(path, 'ndjson', { bareIds: true }));
    expect(lines.map((l) => l.problem)).toEqual(['must be a parcel id (a UUID) or a JSON object', expect.stringMatching(/^is not valid JSON \(/), 'must be a JSON object or a bare parcel id']);
    expect(() => idsFromLines('not-an-id\n{oops')).toThrow('--from line 1 must be a parcel id (a UUID) or a JSON object');
  });

  it('a line that is not UTF-8 is reported, not mangled', async () => {
    const path = file('bad.ndjson', Buffer.from([0x7b, 0x7d, 0x0a, 0x7b, 0xff, 0x7d, 0x0a]));
    const lines = await collect(readInput(path, 'ndjson', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.problem])).toEqual([
      [1, undefined],
      [2, 'is not valid UTF-8 text'],
    ]);
  });

  it('lines that cross read chunks come out whole', async () => {
    const body = `{"pad":"${'x'.repeat(100_000)}"}`;
    const path = file('big.ndjson', `${body}\n${body}\n`);
    const lines = await collect(readInput(path, 'ndjson', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.bytes.length])).toEqual([
      [1, body.length],
      [2, body.length],
    ]);
  });
});

describe('CSV reading', () => {
  it('header = field names; integer fields become numbers, empty cells are absent; line = where the record starts', async () => {
    const path = file(
      'p.csv',
      'courier,country,postal_code,number,parcel_weight,addition\r\nDEMO-BIKE,NL,1234AB,10,1200,\r\nDEMO-VAN,NL,1234AB,"1\n2",x12,B\r\n',
    );
    const lines = await collect(readInput(path, 'csv', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.record, l.json])).toEqual([
      [2, { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1200 }, false],
      [3, { courier: 'DEMO-VAN', country: 'NL', postal_code: '1234AB', number: '1\n2', parcel_weight: 'x12', addition: 'B' }, false],
    ]);
    expect(lines[0]?.bytes.toString()).toBe('DEMO-BIKE,NL,1234AB,10,1200,');
  });

  it('a ragged row, a bad quote or bytes that are not UTF-8 are one bad line each; the rows around them are read', async () => {
    const path = file('bad.csv', Buffer.concat([Buffer.from('a,b\n1,2\n1,2,3\n"x"y,2\n4\n'), Buffer.from([0xff, 0x2c, 0x31, 0x0a]), Buffer.from('9,10\n5,"6\n7,8\n')]));
    const lines = await collect(readInput(path, 'csv', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.record, l.problem])).toEqual([
      [2, { a: '1', b: '2' }, undefined],
      [3, undefined, 'has 3 fields where the header has 2'],
      [4, undefined, 'is not valid CSV (text follows a closing quote)'],
      [5, undefined, 'has 1 fields where the header has 2'],
      [6, undefined, 'is not valid UTF-8 text'],
      [7, { a: '9', b: '10' }, undefined],
      // A quote never closed is its own line's problem: reading resumes on the next line.
      [8, undefined, 'is not valid CSV (the quote opened in column "b" is not closed on this line)'],
      [9, { a: '7', b: '8' }, undefined],
    ]);
  });

  it('a quote opens a quoted field only at the start of a field: one inside an unquoted field is that line\'s problem alone', async () => {
    const path = file('quote.csv', 'a,b\n1,x"y\n2,3\n');
    const lines = await collect(readInput(path, 'csv', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.record, l.problem])).toEqual([
      [2, undefined, 'is not valid CSV (a quote inside an unquoted field)'],
      [3, { a: '2', b: '3' }, undefined],
    ]);
  });

  it('a header that cannot be read refuses the whole file before any line is handed on', async () => {
    const refused = async (name: string, text: string): Promise<unknown> => collect(readInput(file(name, text), 'csv', { bareIds: false })).catch((e: unknown) => e);
    const twice = await refused('twice.csv', 'a,b,a\n1,2,3\n');
    expect(twice).toBeInstanceOf(UsageError);
    expect((twice as Error).message).toBe(`${join(dir, 'twice.csv')}:1: the CSV header names the column "a" twice; nothing was sent`);
    expect(((await refused('json.csv', '\n{"courier":"A-BIKE","number":"1"}\n')) as Error).message).toBe(
      `${join(dir, 'json.csv')}:2: the CSV header is not valid CSV (a quote inside an unquoted field); nothing was sent`,
    );
  });

  it('CR-only line breaks (old Macintosh CSV) are line breaks', async () => {
    const path = file('mac.csv', 'a,b\r1,2\r"3\r4",5\r6,7');
    const lines = await collect(readInput(path, 'csv', { bareIds: false }));
    expect(lines.map((l) => [l.line, l.record])).toEqual([
      [2, { a: '1', b: '2' }],
      [3, { a: '3\r4', b: '5' }],
      [5, { a: '6', b: '7' }],
    ]);
  });
});

describe('standard input', () => {
  it('standard input is spooled to the data directory under its hash, which is the file\'s hash', async () => {
    const spooled = await spoolInput(Readable.from([Buffer.from('{"a":1}\n'), Buffer.from('{"b":2}\n')]), dir);
    expect(spooled.path).toBe(join(dir, 'spool', `${spooled.hash}.input`));
    expect(await hashFile(spooled.path)).toBe(spooled.hash);
    expect(spooled.hash).toBe(createHash('sha256').update('{"a":1}\n{"b":2}\n').digest('hex'));
  });
});
