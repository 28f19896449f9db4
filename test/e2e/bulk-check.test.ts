/**
 * End-to-end `--check` with `--from`: the built binary against `parcels sandbox serve`; the
 * sandbox's request log shows the one request a check makes (the couriers read), and nothing is created.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, serveSandbox } from '../helpers/spawn.js';
import { spawnedSession } from '../helpers/spawned-session.js';
import { parcelLine } from '../helpers/bulk.js';

const session = spawnedSession();
const parcels = (args: string[], env: NodeJS.ProcessEnv) => session.parcels(args, { env });

/** The sandbox's request log, oldest first: method and path of each request. */
async function requestLog(sandbox: ServedSandbox): Promise<string[]> {
  const logs = await parcels(['sandbox', 'logs', '--output', 'ndjson', '--base-url', sandbox.url], binaryEnv({ PARCELS_CONFIG_DIR: sandbox.dir }));
  expect(logs.code, logs.stderr).toBe(0);
  const entries = logs.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { method: string; path: string; at?: string });
  return entries.map((e) => `${e.method} ${e.path}`);
}

describe('bulk --check', () => {
  it('reads the couriers once and nothing else, lists the lines a run would not send, exits 2; a clean file exits 0', async () => {
    session.running = await serveSandbox(TEST_SEED);
    const env = binaryEnv({ PARCELS_BASE_URL: session.running.url, PARCELS_API_KEY: FULL_KEY });
    const dir = env.PARCELS_CONFIG_DIR as string;
    const input = join(dir, 'parcels.ndjson');
    const lines = [parcelLine(1), parcelLine(2), JSON.stringify({ courier: 'A-BIKF', country: 'NL', postal_code: '1234AB', number: '3' }), '{"courier":"A-BIKE","country":"NL","postal_code":"1234AB"}', parcelLine(5)];
    writeFileSync(input, `${lines.join('\n')}\n`);

    const check = await parcels(['create', '--from', input, '--check'], env);
    expect(check.code, check.stderr).toBe(2);
    expect(check.stdout).toBe('line 3: courier "A-BIKF" is not one of your organisation\'s couriers; did you mean A-BIKE?\nline 4: number is required\n');
    expect(check.stderr).toMatch(
      new RegExp(
        `^! 5 lines checked: 3 would be sent, 2 would not \\(1 invalid, 1 with an unknown courier\\); nothing was sent \\(batch [0-9a-f]{16}\\)\\n` +
          `Hint: fix the lines listed in ${input}, then \`parcels create --from ${input}\` sends it\\n$`,
      ),
    );
    expect(await requestLog(session.running)).toEqual(['GET /account/v1/couriers']);

    // The same refusal as --dry-run gets, with the way to a check.
    const dry = await parcels(['create', '--from', input, '--dry-run'], env);
    expect(dry).toMatchObject({ code: 2, stdout: '' });
    expect(dry.stderr).toContain(`\`parcels create --from ${input} --check\` reads and validates every line (and its courier) and sends nothing`);

    writeFileSync(input, `${[1, 2, 3].map(parcelLine).join('\n')}\n`);
    const clean = await parcels(['create', '--from', input, '--check'], env);
    expect(clean, clean.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(clean.stderr).toMatch(/^✓ 3 lines checked: 3 would be sent; nothing was sent \(batch [0-9a-f]{16}\)\nHint: `parcels create --from \S+` sends it\n$/);
    expect(await requestLog(session.running)).toEqual(['GET /account/v1/couriers', 'GET /account/v1/couriers']);

    // After a run, a check of the same file finds every line done.
    const run = await parcels(['create', '--from', input], env);
    expect(run.code, run.stderr).toBe(0);
    const again = await parcels(['create', '--from', input, '--check'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^✓ 3 lines checked: 0 would be sent, 3 already done; nothing was sent /);
    const list = await parcels(['list', '--all', '-o', 'ndjson'], env);
    expect(list.stdout.split('\n').filter(Boolean)).toHaveLength(3);
  }, 120_000);
});
