/**
 * One served sandbox per test file, as the built-CLI tiers (e2e, pty) use it: `parcels sandbox
 * serve` started before the file's tests and stopped (exit 0) after them, and the environment that
 * runs the built CLI against it with the full key.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { FULL_KEY, TEST_SEED } from './seed.js';
import type { ServedSandbox } from './spawn.js';
import { binaryEnv, parcels, serveSandbox } from './spawn.js';

/** The file's sandbox and environment: both objects are filled in once the sandbox is up, so a file takes them at its top. */
export function servedForFile(extraArgs: string[] = []): { sandbox: ServedSandbox; env: NodeJS.ProcessEnv } {
  // Filled in by beforeAll: nothing reads them before a test runs.
  const sandbox = {} as ServedSandbox;
  const env: NodeJS.ProcessEnv = {};
  beforeAll(async () => {
    Object.assign(sandbox, await serveSandbox(TEST_SEED, extraArgs));
    Object.assign(env, binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY }));
  });
  afterAll(async () => {
    expect(await sandbox.stop()).toBe(0);
  });
  return { sandbox, env };
}

/** A parcel created with the built CLI (courier A-BIKE, 1234AB 1, and `extra` flags): its id. */
export async function newParcel(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<string> {
  const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet', ...extra], { env });
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim();
}
