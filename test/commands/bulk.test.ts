/** Bulk runs in-process against a real sandbox: what reaches stderr on a terminal and off one. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { Harness } from './harness.js';
import { expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

function input(count: number): string {
  const path = join(tempConfigDir(), 'parcels.ndjson');
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(i + 1) }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('bulk run output', () => {
  it('off a terminal: results on stdout, nothing on stderr but the summary', async () => {
    const r = await h.cli(['create', '--from', input(3)]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { line: number }).line)).toEqual([1, 2, 3]);
    expect(r.stderr).toMatch(/^✓ 3 created, 0 already done, 0 failed in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)\n$/);
  });

  it('on a terminal: a progress bar with the count out of the file lines, then the summary', async () => {
    const r = await h.cli(['create', '--from', input(3)], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\d\/3 lines \| \d+\/s \| ETA /);
    expect(r.stderr).toMatch(/✓ 3 created, 0 already done, 0 failed in .*\n$/);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('--quiet on a terminal: no progress bar', async () => {
    const r = await h.cli(['create', '--from', input(2), '--quiet'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^✓ 2 created, 0 already done, 0 failed in /);
  });
});
