import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIMITERS, delimiterFlag, detectDelimiter } from '../../src/bulk/csv/delimiter.js';
import type { InputLine, InputTally } from '../../src/bulk/input.js';
import { newTally, readInput } from '../../src/bulk/input.js';
import { normaliseAddress, normaliseCountry, normalisePostcode } from '../../src/schemas/address-normalize.js';
import { UsageError } from '../../src/errors.js';

/** The input handed on in pieces of the given sizes (cycled), as a slow pipe would. */
function inPieces(text: string, sizes: readonly number[] = [text.length || 1]): Readable {
  const data = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length] as number;
    pieces.push(data.subarray(at, at + size));
    at += size;
  }
  return Readable.from(pieces, { objectMode: false });
}

async function read(text: string, sizes?: readonly number[], tally: InputTally = newTally()): Promise<InputLine[]> {
  const lines: InputLine[] = [];
  for await (const batch of readInput(inPieces(text, sizes), 'csv', { bareIds: false, tally })) lines.push(...batch);
  return lines;
}

const view = (lines: InputLine[]) => lines.map((l) => [l.line, l.endLine, l.record, l.problem]);

describe('CSV records: a quoted cell spans lines only when its record closes with the header\'s column count', () => {
  it('a multi-line cell is one record naming its span; a stray quote is its own line, and the next line is read', async () => {
    const tally = newTally();
    const lines = await read('a,b,c\n1,"two\nlines",3\n4,"5,6\n7,8,9\n\n10,11,12\n', undefined, tally);
    expect(view(lines)).toEqual([
      [2, 3, { a: '1', b: 'two\nlines', c: '3' }, undefined],
      [4, undefined, undefined, 'is not valid CSV (the quote opened in column "b" is not closed on this line)'],
      [5, undefined, { a: '7', b: '8', c: '9' }, undefined],
      [7, undefined, { a: '10', b: '11', c: '12' }, undefined],
    ]);
    expect(tally).toEqual({ physical: 7, header: 1, blank: 1, continuation: 1 });
    expect(tally.physical).toBe(lines.length + tally.header + tally.blank + tally.continuation);
  });

  it('a quote that closes into a record of another column count is a stray one: lines 632–674 are not one record', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => `${i},x,y`);
    rows[10] = '10,"x,y';
    rows[20] = '20,x,"y"z';
    const lines = await read(`a,b,c\n${rows.join('\n')}\n`);
    expect(lines).toHaveLength(100);
    expect(lines.filter((l) => l.problem !== undefined).map((l) => [l.line, l.problem])).toEqual([
      [12, 'is not valid CSV (the quote opened in column "b" is not closed on this line)'],
      [22, 'is not valid CSV (text follows a closing quote)'],
    ]);
  });

  it('the delimiter comes from the header (outside quotes), or from --delimiter; a BOM and CRLF are not part of any cell', async () => {
    expect(view(await read('\uFEFFcourier;country;"a,b"\r\nX;NL;"1;2"\r\n'))).toEqual([[2, undefined, { courier: 'X', country: 'NL', 'a,b': '1;2' }, undefined]]);
    expect(view(await read('a\tb\n1\t"x\ty"\n'))).toEqual([[2, undefined, { a: '1', b: 'x\ty' }, undefined]]);
    expect(detectDelimiter(Buffer.from('"a;b;c",d,e'))).toBe(DELIMITERS.comma);
    expect(detectDelimiter(Buffer.from('a;b,c;d'))).toBe(DELIMITERS.semicolon);
    expect(detectDelimiter(Buffer.from('single'))).toBe(DELIMITERS.comma);
    expect([delimiterFlag('tab'), delimiterFlag(';'), delimiterFlag('Comma')]).toEqual([DELIMITERS.tab, DELIMITERS.semicolon, DELIMITERS.comma]);
    expect(() => delimiterFlag('|')).toThrow(UsageError);
  });

  const cell = (alphabet: string[]) => fc.array(fc.constantFrom(...alphabet), { maxLength: 6 }).map((chars) => chars.join(''));
  const written = (value: string): string => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

  it('property: any file of well-formed records (cells with commas, quotes, line breaks), cut into any reads, reads back exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(cell(['x', ',', '"', '\n', ' ']), cell(['y', '\n', '"']), cell(['z', ','])), { minLength: 1, maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 4 }), async (rows, sizes) => {
        let next = 2;
        const expected = rows.map(([a, b, c]) => {
          const text = [a, b, c].map(written).join(',');
          const line = next;
          const breaks = text.split('\n').length - 1;
          next += breaks + 1;
          const record = Object.fromEntries(Object.entries({ a, b, c }).filter(([, v]) => v !== ''));
          return [line, breaks === 0 ? undefined : line + breaks, record, undefined];
        });
        const text = `a,b,c\n${rows.map((r) => r.map(written).join(',')).join('\n')}\n`;
        const tally = newTally();
        const lines = await read(text, sizes, tally);
        expect(view(lines)).toEqual(expected);
        expect(tally.physical).toBe(lines.length + tally.header + tally.blank + tally.continuation);
        expect(tally.physical).toBe(next - 1);
      }),
      { numRuns: 60 },
    );
  });

  it('property: a stray quote inserted anywhere is one bad line; every other record is read as it was written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(cell(['x', '"']), cell(['y', '"']), cell(['z'])), { minLength: 1, maxLength: 40 }), fc.nat(), async (rows, where) => {
        const texts = rows.map((r) => r.map(written).join(','));
        const at = where % (texts.length + 1);
        texts.splice(at, 0, 'x,"stray');
        const lines = await read(`a,b,c\n${texts.join('\n')}\n`);
        expect(lines).toHaveLength(texts.length);
        expect(lines.filter((l) => l.problem !== undefined).map((l) => l.line)).toEqual([at + 2]);
        expect(lines.every((l) => l.endLine === undefined)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the one address normalisation rule (src/schemas/address-normalize.ts)', () => {
  it('NL postcodes lose their spaces and are upper-cased; country codes are upper-cased; other postcodes only trimmed', () => {
    expect(normaliseCountry(' nl ')).toBe('NL');
    expect(normalisePostcode('1234 ab', 'nl')).toBe('1234AB');
    expect(normalisePostcode(' 1234  Ab ', 'NL')).toBe('1234AB');
    expect(normalisePostcode(' sw1a 1aa ', 'GB')).toBe('sw1a 1aa');
    expect(normalisePostcode('1234 ab', undefined)).toBe('1234 ab');
    expect(normaliseAddress({ country: 'nl', postal_code: '1234 ab', number: '1' }, 'country', 'postal_code')).toEqual({ country: 'NL', postal_code: '1234AB', number: '1' });
    const valid = { country: 'NL', postal_code: '1234AB', number: '1' };
    expect(normaliseAddress(valid, 'country', 'postal_code')).toEqual(valid);
    expect(normaliseAddress({ delivered_country: 'nl', delivered_postal_code: '1234 ab' }, 'delivered_country', 'delivered_postal_code')).toEqual({ delivered_country: 'NL', delivered_postal_code: '1234AB' });
  });
});
