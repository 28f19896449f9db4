/**
 * Bulk input on a real terminal: the built CLI on a pty (test/helpers/pty.ts). At a terminal the
 * progress bar counts the input's lines first; input that never ends (/dev/zero) must not be counted.
 */
import { describe, expect, it } from 'vitest';
import { bulkHelpers } from '../helpers/bulk.js';
import { hasPty, runCli } from '../helpers/pty.js';

const { serve, allParcels } = bulkHelpers();

describe.skipIf(!hasPty)('bulk input on a terminal', () => {
  it('--from /dev/zero ends at once with the not-text error (the bar does not count an endless input first)', async () => {
    const { env } = await serve();
    const run = await runCli(['create', '--from', '/dev/zero'], { env, columns: 120, rows: 24 });
    expect(run.code).toBe(2);
    expect(run.lines.filter((l) => l !== '')).toEqual([
      'Error: --from: /dev/zero holds NUL bytes: it is not a text file (NDJSON or CSV); nothing was sent',
      'Hint: give a UTF-8 NDJSON or CSV file',
    ]);
    expect(await allParcels(env)).toEqual([]);
  });
});
