import { afterEach, expect } from 'vitest';
import { ALL_KEYS } from './seed.js';
import type { ServedSandbox, Spawned } from './spawn.js';
import { parcels as spawnParcels } from './spawn.js';
import { replayTestHints } from './spawned-hints.js';

/**
 * An end-to-end file's session with the built binary and `parcels sandbox serve`: `parcels` runs
 * the binary and keeps what it printed; after each test the printed hints are replayed, every
 * sandbox still up (`running`, and those in `sandboxes`) must stop with exit 0, and no key may
 * appear in anything printed.
 */
export interface SpawnedSession {
  /** The sandbox a test stops and starts again itself (set it to undefined once stopped). */
  running: ServedSandbox | undefined;
  /** Sandboxes stopped after the test. */
  readonly sandboxes: ServedSandbox[];
  parcels(args: string[], opts: { env: NodeJS.ProcessEnv; input?: string }): Promise<Spawned>;
}

export function spawnedSession(): SpawnedSession {
  const seen: Spawned[] = [];
  const session: SpawnedSession = {
    running: undefined,
    sandboxes: [],
    async parcels(args, opts) {
      const result = await spawnParcels(args, opts);
      seen.push(result);
      return result;
    },
  };
  afterEach(async () => {
    await replayTestHints();
    if (session.running !== undefined) expect(await session.running.stop()).toBe(0);
    session.running = undefined;
    for (const sandbox of session.sandboxes.splice(0)) expect(await sandbox.stop()).toBe(0);
    const everything = seen.splice(0).map((r) => r.stdout + r.stderr).join('\n');
    for (const key of ALL_KEYS) expect(everything).not.toContain(key);
  });
  return session;
}
