import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, runCli } from '../helpers/pty.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const ids: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY, PARCELS_SANDBOX_ADMIN_TOKEN: sandbox.adminToken });
  const from = join(env.PARCELS_CONFIG_DIR as string, 'in.ndjson');
  writeFileSync(from, ['1', '2', '3'].map((n) => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: n })).join('\n') + '\n');
  const bulk = await parcels(['create', '--from', from], { env });
  for (const l of bulk.stdout.trim().split('\n')) ids.push((JSON.parse(l) as { entry_id: string }).entry_id);
  await parcels(['events', 'add', ids[0] as string, '--status', 'in_transit'], { env });
  await parcels(['attempts', 'add', ids[0] as string, '--outcome', 'delivered'], { env });
  await parcels(['events', 'add', ids[1] as string, '--status', 'picked_up', '--offline'], { env });
});
afterAll(() => sandbox.close());

describe.skipIf(!hasPty)('dump', () => {
  it('dump', async () => {
    const out: string[] = [];
    for (const args of [['list'], ['sandbox', 'logs'], ['batches'], ['outbox'], ['track', ...ids], ['get', ids[0] as string], ['track', ids[0] as string], ['doctor'], ['help', 'exit-codes']]) {
      for (const columns of [60, 100, 200]) {
        const r = await runCli(args, { env, columns, tz: 'Europe/Amsterdam' });
        out.push(`### ${args.join(' ')} @${columns} → ${r.code}`, ...r.lines);
      }
    }
    writeFileSync('/tmp/termc/dump.txt', out.join('\n').replaceAll(ids[0] as string, 'ID0').replaceAll(ids[1] as string, 'ID1').replaceAll(ids[2] as string, 'ID2'));
  });
});
