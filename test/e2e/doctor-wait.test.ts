/**
 * End-to-end for `doctor --wait` (issue 31): the built binary, spawned, against a port where nothing
 * listens yet. The sandbox starts on that port when doctor says it was refused (an event on its
 * stderr, not a delay), and doctor's checks then pass. Run `npm run build` first (`npm test` does).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { Spawned } from '../helpers/spawn.js';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const seen: Spawned[] = [];
const sandboxes: RunningSandbox[] = [];

afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.close();
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n');
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

/** A port nothing listens on: the system's pick for port 0, released again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs the built binary; `onStderr` sees stderr as it grows (and may start a service). */
function parcels(args: string[], env: NodeJS.ProcessEnv, onStderr: (stderr: string) => void = () => {}): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      onStderr(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout, stderr };
      seen.push(result);
      resolve(result);
    });
  });
}

/** Latencies and waits vary from run to run; everything else is asserted as printed. */
function steady(text: string, port: number): string {
  return text
    .replaceAll(String(port), 'PORT')
    .replace(/answered in \d+ ms/g, 'answered in N ms')
    .replace(/trying again in [\d.]+ s/g, 'trying again in T s')
    .replace(/(none at )\S+(\/config\.json)/, '$1DIR$2');
}

describe('doctor --wait', () => {
  it('waits out refused connections: the sandbox starts when doctor says it was refused, and every check passes (exit 0)', async () => {
    const port = await freePort();
    const env = binaryEnv({ PARCELS_BASE_URL: `http://127.0.0.1:${port}`, PARCELS_API_KEY: FULL_KEY });
    let starting: Promise<RunningSandbox> | undefined;
    const r = await parcels(['doctor', '--wait', '2m'], env, (stderr) => {
      if (starting === undefined && stderr.includes('is not answering yet (connection refused)')) {
        starting = startSandbox({ seed: TEST_SEED, db: ':memory:', port });
        void starting.then((sandbox) => sandboxes.push(sandbox));
      }
    });
    expect(starting).toBeDefined();
    expect(r.code, r.stderr).toBe(0);
    // One notice or more (the sandbox may take a few tries to start), each the same line, then the summary.
    const lines = steady(r.stderr, port).split('\n');
    expect(lines.slice(-2)).toEqual(['✓ All checks passed', '']);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(new Set(lines.slice(0, -2))).toEqual(new Set(['! http://127.0.0.1:PORT is not answering yet (connection refused); trying again in T s']));
    expect(steady(r.stdout, port)).toBe(
      [
        '✓ settings                profile "default" (default), base URL http://127.0.0.1:PORT (PARCELS_BASE_URL), key from PARCELS_API_KEY',
        '✓ host                    http://127.0.0.1:PORT answered in N ms',
        '✓ key                     accepted (from PARCELS_API_KEY)',
        '✓ scope deliveries:read   held',
        '✓ scope deliveries:write  held',
        '✓ scope usage:read        held',
        '✓ scope oracle:read       held',
        '✓ clock                   in step with the service',
        '✓ config file             none at DIR/config.json (settings come from flags and the environment)',
        '✓ outbox                  empty',
        '✓ bulk batches            none unfinished',
        '',
      ].join('\n'),
    );
  });

  it('gives up when the time is up: the checks run once more and the host fails (exit 8)', async () => {
    const port = await freePort();
    const env = binaryEnv({ PARCELS_BASE_URL: `http://127.0.0.1:${port}`, PARCELS_API_KEY: FULL_KEY });
    const r = await parcels(['doctor', '--wait', '500ms', '--json'], env);
    expect(r.code).toBe(8);
    // JSON on stdout: the notices, for people, stay out of the way; the error is one JSON line.
    expect(r.stderr).toBe(
      '{"error":{"status":null,"code":"check_failed","message":"1 check failed: host","exit_code":8,"hint":"check the base URL (--base-url, PARCELS_BASE_URL or the profile) and the network"}}\n',
    );
    const report = JSON.parse(r.stdout) as { ok: boolean; exit_code: number; checks: { check: string; result: string; detail: string }[] };
    expect([report.ok, report.exit_code]).toEqual([false, 8]);
    expect(report.checks.find((c) => c.check === 'host')).toMatchObject({ result: 'failure', detail: `http://127.0.0.1:${port} did not answer: connection refused: connect ECONNREFUSED 127.0.0.1:${port}` });
  });
});
