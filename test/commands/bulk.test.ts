/** Bulk runs in-process against a real sandbox: what reaches stderr on a terminal and off one. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
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

/** `count` parcels numbered from `first`: inputs with different numbers are different batches. */
function input(count: number, first = 1): string {
  const path = join(tempConfigDir(), 'parcels.ndjson');
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(first + i) }));
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

function journaledSends(dir: string): number {
  const root = join(dir, 'journals');
  if (!existsSync(root)) return 0;
  let sends = 0;
  for (const target of readdirSync(root)) {
    for (const file of readdirSync(join(root, target)).filter((name) => name.endsWith('.ndjson'))) {
      sends += readFileSync(join(root, target, file), 'utf8').split('"t":"sent"').length - 1;
    }
  }
  return sends;
}

describe('Ctrl-C during a bulk run (every answer takes 1.5 s)', () => {
  let slow: Harness;
  /** A file, so the test can see what the sandbox committed while the answers are held back. */
  const database = join(tempConfigDir(), 'slow.db');
  beforeAll(async () => {
    slow = await startHarness({ faults: { latencyMs: 1500 }, db: database });
  });
  /** Parcels the sandbox has committed (a create commits before the latency fault holds its answer). */
  function committedParcels(): number {
    const db = new Database(database, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT COUNT(*) FROM parcels').pluck().get() as number;
    } finally {
      db.close();
    }
  }
  afterAll(async () => {
    expectNoSecrets(slow.seen);
    await slow.close();
  });

  async function interrupted(abandonToo: boolean) {
    const env = slow.env();
    const captured = captureIO({ env });
    const signal = new AbortController();
    const abandon = new AbortController();
    const before = committedParcels();
    // Each test its own batch: the same lines would be replays of the other test's, never committed anew.
    const running = run(['create', '--from', input(5, abandonToo ? 101 : 201), '--concurrency', '2'], { io: captured.io, env, signal: signal.signal, abandon: abandon.signal });
    // Both requests have reached the sandbox (committed, their answers held back) and are in the journal.
    await expect.poll(() => committedParcels() - before, { timeout: 5000, interval: 20 }).toBe(2);
    expect(journaledSends(env.PARCELS_CONFIG_DIR as string)).toBe(5);
    signal.abort('SIGINT');
    // The first Ctrl-C is handled as it is raised (abort listeners run synchronously); the second follows.
    if (abandonToo) abandon.abort('SIGINT');
    const code = await running;
    return slow.record({ code, stdout: captured.stdout(), stderr: captured.stderr() });
  }

  it('the first waits for the requests in flight: they are confirmed, nothing more is sent, exit 130', async () => {
    const r = await interrupted(false);
    expect(r.code).toBe(130);
    expect(r.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { line: number; ok: boolean })).toMatchObject([
      { line: 1, ok: true, outcome: 'created' },
      { line: 2, ok: true, outcome: 'created' },
    ]);
    expect(r.stderr).toMatch(/^Interrupted: 2 created, 0 already done, 0 failed in /);
  });

  it('a second abandons them at once: reported as cancelled (left uncertain for the next run), exit 130', async () => {
    const r = await interrupted(true);
    expect(r.code).toBe(130);
    // Both requests were committed: had the run waited for their held answers, they would read ok.
    expect(r.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)).toEqual([
      { line: 1, ok: false, outcome: 'not_sent', error: { code: 'cancelled', message: 'cancelled before an answer; the next run resends it with the same key' } },
      { line: 2, ok: false, outcome: 'not_sent', error: { code: 'cancelled', message: 'cancelled before an answer; the next run resends it with the same key' } },
    ]);
    expect(r.stderr).toMatch(/^Interrupted: 0 created, 0 already done, 0 failed, 2 cancelled in /);
  });
});
