/**
 * A --jq filter that never ends: it meets the time limit with a clear error, the command's signal
 * stops it at once, and the built binary exits 130 on SIGINT and 143 on SIGTERM while jq spins.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CancelledError, UsageError } from '../../src/errors.js';
import { compileJq } from '../../src/io/jq.js';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

/** CPU time (user + system, all threads) a process has used, in clock ticks; 0 once it is gone. */
function cpuTicks(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = stat.split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

describe('a runaway --jq filter', () => {
  it('meets the time limit with a clear error (exit 2), at compile time and on the data', async () => {
    for (const expression of ['def f: f; f', 'repeat(1)']) {
      const error = await compileJq(expression, { timeLimitMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(
        '--jq stopped: the filter gave no result within 0.3 s (a filter that never ends, such as repeat(…) or a recursion without a base case?)',
      );
    }
    // Harmless on the compile run (null), runaway on the data; the next filter still works.
    const filter = await compileJq('if .spin then last(repeat(1)) else .n end', { timeLimitMs: 300 });
    await expect(filter.run([{ spin: true }])).rejects.toThrow('--jq stopped: the filter gave no result within 0.3 s');
    expect(await filter.run([{ n: 7 }])).toEqual({ lines: ['7'] });
  });

  it("the command's signal stops a run at once", async () => {
    const cancel = new AbortController();
    const filter = await compileJq('if .spin then last(repeat(1)) else . end', { signal: cancel.signal });
    const running = filter.run([{ spin: true }]);
    cancel.abort('SIGINT');
    await expect(running).rejects.toBeInstanceOf(CancelledError);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it.skipIf(!existsSync('/proc/self/stat'))(`the built binary, spinning in jq, exits ${code} on ${signal}`, async () => {
      const child = spawn(process.execPath, [BIN, 'list', '--jq', 'def f: f; f', '--base-url', 'http://127.0.0.1:9'], { env: binaryEnv({ PARCELS_API_KEY: 'k'.repeat(20) }) });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      const pid = child.pid as number;
      // Start-up (a filter that ends included) uses about 0.3 s of CPU; past 0.6 s the filter is what spins.
      let ended = false;
      void exited.then(() => (ended = true));
      while (!ended && cpuTicks(pid) < 60) await new Promise((r) => setTimeout(r, 50));
      expect(ended, stderr).toBe(false);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toBe('');
    });
  }
});
