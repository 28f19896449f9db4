/**
 * The built binary: `sandbox serve` writes its admin token to a 0600 file named on stderr (stdout
 * stays the URL), the other `parcels sandbox …` commands find it through the base URL, and
 * `sandbox logs --follow` prints requests as they arrive, never a key.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const DEMO_KEY = 'sbx_demo_9f2c4e7a1b3d5f60';

/** Everything a stream printed so far, and a wait for a condition on it (checked at once and on every chunk). */
function collect(stream: NodeJS.ReadableStream): { text(): string; until(test: (text: string) => boolean): Promise<void> } {
  let text = '';
  const waiters = new Set<() => void>();
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const check of waiters) check();
  });
  return {
    text: () => text,
    until: (test) =>
      new Promise((resolve) => {
        const check = () => {
          if (!test(text)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

function start(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1)));
}

describe('sandbox serve with the test bench', () => {
  it('writes the admin token to a 0600 file named on stderr; clock and logs --follow find it through the base URL', async () => {
    const dir = tempConfigDir();
    const env = binaryEnv({ PARCELS_CONFIG_DIR: dir });
    const serve = start(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--frozen'], env);
    const served = exitOf(serve);
    const out = collect(serve.stdout);
    const err = collect(serve.stderr);
    await out.until((t) => t.includes('\n'));
    const url = out.text().trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(url).port;
    const file = join(dir, `sandbox-admin-${port}.token`);
    await err.until((t) => t.includes('Press Ctrl-C'));
    expect(err.text()).toContain(`Admin token (for parcels sandbox clock, simulate, logs, faults) in ${file}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    try {
      const clock = await parcels(['sandbox', 'clock', '--json', '--base-url', url], { env });
      expect(clock.code, clock.stderr).toBe(0);
      expect(JSON.parse(clock.stdout)).toMatchObject({ frozen: true, speed: 1 });

      const follow = start(['sandbox', 'logs', '--follow', '--output', 'ndjson', '--base-url', url], env);
      const followed = exitOf(follow);
      const log = collect(follow.stdout);
      // Each request shows up while the follower keeps running.
      const couriers = await parcels(['couriers', '--base-url', url], { env: { ...env, PARCELS_API_KEY: DEMO_KEY } });
      expect(couriers.code, couriers.stderr).toBe(0);
      await log.until((t) => t.includes('"/account/v1/couriers"'));
      const missing = await parcels(['get', '00000000-0000-4000-8000-000000000000', '--base-url', url], { env: { ...env, PARCELS_API_KEY: DEMO_KEY } });
      expect(missing.code).toBe(4);
      await log.until((t) => t.includes('parcel_not_found'));
      const lines = log.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => [l.method, l.path, l.status, l.code])).toEqual([
        ['GET', '/account/v1/couriers', 200, null],
        ['GET', '/deliveries/v1/reference', 200, null],
        ['GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000', 404, 'parcel_not_found'],
      ]);
      expect(lines.at(-1)?.authorization).toBe('Bearer [redacted]');
      expect(log.text()).not.toContain(DEMO_KEY);
      follow.kill('SIGINT');
      expect(await followed).toBe(130);
    } finally {
      serve.kill('SIGTERM');
    }
    expect(await served, err.text()).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(err.text()).not.toMatch(/sbxadm_/);
  });
});
