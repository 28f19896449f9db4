/**
 * Issue 20 through the built CLI: `create --courier <Tab>` fetches and caches the couriers on first
 * need (silently, nothing when the service is away), required --status/--outcome, outbox drop, and
 * the parser's errors and the scenario list as the installed binary prints them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, parcels, serveSandbox } from '../helpers/spawn.js';
import { replayTestHints } from '../helpers/spawned-hints.js';

let running: ServedSandbox | undefined;
afterEach(async () => {
  await replayTestHints();
  await running?.stop();
  running = undefined;
});

describe('the built CLI', () => {
  it('completion of --courier asks the service once, caches the answer, and is silent when nothing answers', async () => {
    running = await serveSandbox(TEST_SEED);
    const env = binaryEnv({ PARCELS_BASE_URL: running.url, PARCELS_API_KEY: FULL_KEY });
    expect(await parcels(['__complete', 'create', '--courier', ''], { env })).toEqual({ code: 0, stdout: 'A-BIKE\tA bikes\nA-VAN\tA vans\n', stderr: '' });
    // Cached: answered with the service gone.
    await running.stop();
    running = undefined;
    expect(await parcels(['__complete', 'create', '--courier', 'A-V'], { env })).toEqual({ code: 0, stdout: 'A-VAN\tA vans\n', stderr: '' });
    const nothing = binaryEnv({ PARCELS_BASE_URL: 'http://127.0.0.1:9', PARCELS_API_KEY: FULL_KEY });
    expect(await parcels(['__complete', 'create', '--courier', ''], { env: nothing })).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 30_000);

  it('events add without --status and attempts add without --outcome change nothing (exit 2)', async () => {
    running = await serveSandbox(TEST_SEED);
    const env = binaryEnv({ PARCELS_BASE_URL: running.url, PARCELS_API_KEY: FULL_KEY });
    const id = (await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '-q'], { env })).stdout.trim();
    expect((await parcels(['events', 'add', id.slice(0, 8)], { env })).code).toBe(2);
    expect((await parcels(['attempts', 'add', id.slice(0, 8), '--reason', 'not_at_home'], { env })).code).toBe(2);
    const parcel = JSON.parse((await parcels(['get', id, '--json'], { env })).stdout) as { status: number };
    expect(parcel.status).toBe(0);
  }, 30_000);

  it('parser errors, scenario names and outbox drop as the binary prints them', async () => {
    const env = binaryEnv();
    expect(await parcels(['list', '--statsu', '1', '--sandbox'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: unknown option '--statsu'\nHint: did you mean `parcels list --status 1 --sandbox`?\nUsage: parcels list [options]\n",
    });
    expect((await parcels(['sandbox', 'simulate', '--help'], { env })).stdout).toContain('\n  three-failures-returned  ');
    const queued = await parcels(['events', 'add', '00000000-0000-4000-8000-000000000000', '--status', '1', '--offline', '--base-url', 'http://127.0.0.1:9'], {
      env: { ...env, PARCELS_API_KEY: FULL_KEY },
    });
    expect(queued).toEqual({ code: 75, stdout: '', stderr: '! queued (1 waiting); `parcels outbox flush --base-url http://127.0.0.1:9` sends it\n' });
    expect(await parcels(['outbox', 'drop', '1', '--base-url', 'http://127.0.0.1:9'], { env: { ...env, PARCELS_API_KEY: FULL_KEY } })).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ Removed #1: events add 00000000-0000-4000-8000-000000000000 status picked_up\n',
    });
  }, 30_000);
});
