import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputCodeNames } from '../../src/bulk/code-names.js';
import type { InputFormat } from '../../src/bulk/input-format.js';
import { readInput } from '../../src/bulk/input.js';
import { UsageError } from '../../src/errors.js';

const NAMES = { service_type: { 0: 'standard', 2: 'next_day' }, location_type: { 5: 'locker' } };

/** The names the input needs, and how often the service's names were asked for. */
async function namesFor(lines: string[], format: InputFormat, overrides?: Record<string, unknown>): Promise<{ names: unknown; loads: number }> {
  const path = join(mkdtempSync(join(tmpdir(), 'code-names-')), `input.${format}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  let loads = 0;
  const names = await inputCodeNames(path, (onHeader) => readInput(path, format, { bareIds: true, onHeader }), {
    format,
    input: path,
    overrides,
    load: () => {
      loads++;
      return Promise.resolve(NAMES);
    },
  });
  return { names, loads };
}

describe('the service names an input needs', () => {
  it('numbers, and status, outcome and reason names, need no read', async () => {
    expect(await namesFor(['{"courier":"A","service_type":2}', '{"courier":"A","service_type" : 0}'], 'ndjson')).toEqual({ names: undefined, loads: 0 });
    expect(await namesFor(['{"entry_id":"x","outcome":"delivered","reason":"not at home","delivered":{"delivered_location_type":5}}'], 'ndjson')).toEqual({ names: undefined, loads: 0 });
    expect(await namesFor(['entry_id,status', 'x,in_transit'], 'csv')).toEqual({ names: undefined, loads: 0 });
    expect(await namesFor(['courier,service_type', 'A,2', 'A,'], 'csv')).toEqual({ names: undefined, loads: 0 });
  });

  it('a name is read once, however many lines write names; nested, spaced or spelled with an escape alike', async () => {
    expect(await namesFor(['{"service_type":"next_day"}', '{"service_type": "Next Day"}', '{"service_type":"standard"}'], 'ndjson')).toEqual({ names: NAMES, loads: 1 });
    expect(await namesFor(['{"entry_id":"x","delivered":{"delivered_location_type" :\t"locker"}}'], 'ndjson')).toEqual({ names: NAMES, loads: 1 });
    expect(await namesFor(['{"service\\u005ftype":"next_day"}'], 'ndjson')).toEqual({ names: NAMES, loads: 1 });
    expect(await namesFor(['courier,service_type', 'A,2', 'A,next_day'], 'csv')).toEqual({ names: NAMES, loads: 1 });
  });

  it('a column a flag overrides is not the line\'s: its names are never read', async () => {
    expect(await namesFor(['courier,service_type', 'A,nextday'], 'csv', { service_type: 2 })).toEqual({ names: undefined, loads: 0 });
    expect(await namesFor(['{"entry_id":"x","delivered":{"delivered_location_type":"lockr"}}'], 'ndjson', { delivered: { delivered_location_type: 5 } })).toEqual({ names: undefined, loads: 0 });
  });

  it('an unknown name refuses the input naming the column, its first line and the names, with a did-you-mean', async () => {
    const refused = namesFor(['courier,service_type', 'A,next_day', 'A,nextday', 'A,nextday'], 'csv');
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/input\.csv:3: the column "service_type" must be a code number or one of: 0 standard, 2 next_day \(got "nextday"\); did you mean next_day\?; nothing was sent$/);
  });
});
