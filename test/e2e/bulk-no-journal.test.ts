/**
 * A bulk run that ends before sending anything (an input with no lines; issue 19: a crash before
 * sending) leaves no journal, so `parcels batches` does not list a batch that never ran.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bulkHelpers } from '../helpers/bulk.js';

const { serve, parcels } = bulkHelpers();

describe('bulk runs that send nothing', () => {
  it('leave no journal for batches to list; a run that sent a line does', async () => {
    const { env, dir } = await serve();
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, 'courier,country,postal_code,number\n');
    const run = await parcels(['create', '--from', empty], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(await parcels(['batches', '-o', 'json'], { env })).toMatchObject({ code: 0, stdout: '[]\n' });

    const one = join(dir, 'one.csv');
    writeFileSync(one, 'courier,country,postal_code,number\nA-BIKE,NL,1234AB,1\n');
    expect((await parcels(['create', '--from', one], { env })).code).toBe(0);
    const listed = await parcels(['batches', '-o', 'json'], { env });
    expect((JSON.parse(listed.stdout) as Array<{ input: string; done: number }>).map((b) => [b.input, b.done])).toEqual([[one, 1]]);
  });
});
