import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { FULL_KEY, TEST_SEED } from './seed.js';
import type { Spawned } from './spawn.js';
import { binaryEnv, serveSandbox } from './spawn.js';
import { spawnedSession } from './spawned-session.js';

/** Helpers of the bulk end-to-end tests: the built binary against `sandbox serve`, one sandbox per scenario. */

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The helpers, in a spawned session (spawned-session.ts: hints replayed, sandboxes stopped, no key printed). */
export function bulkHelpers() {
  const session = spawnedSession();
  const parcels = session.parcels;

  /** A sandbox of its own; `env` points the binary at it (with a fresh data directory, `dir`). */
  async function serve(seed: unknown = TEST_SEED, args: string[] = []): Promise<{ url: string; env: NodeJS.ProcessEnv; dir: string }> {
    const sandbox = await serveSandbox(seed, args);
    session.sandboxes.push(sandbox);
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    return { url: sandbox.url, env, dir: env.PARCELS_CONFIG_DIR as string };
  }

  function results(r: Spawned): Array<Record<string, unknown>> {
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  async function allParcels(env: NodeJS.ProcessEnv): Promise<Array<Record<string, unknown>>> {
    const r = await parcels(['list', '--all', '-o', 'ndjson', '--retries', '10'], { env });
    expect(r.code, r.stderr).toBe(0);
    return results(r);
  }

  return { parcels, serve, results, allParcels, parcelLine, writeLines, startRun };
}

export const parcelLine = (i: number): string => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(i) });

export function writeLines(dir: string, name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Spawns the binary and resolves `reached` once `lines` result lines are on its stdout. */
export function startRun(args: string[], env: NodeJS.ProcessEnv, lines: number) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let notify: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    if (stdout.split('\n').length > lines) notify?.();
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<Spawned>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGKILL' ? 137 : -1), stdout, stderr })));
  const reached = new Promise<void>((resolve) => (notify = resolve));
  return { child, reached, exited };
}

/** A TCP server on 127.0.0.1 that counts the connections it accepts and closes each at once: a service down. */
export async function droppingServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
