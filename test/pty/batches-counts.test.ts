/**
 * `parcels batches` on a real terminal, the built CLI: the last run's FAILED, INVALID and CANCELLED
 * counts each get a column only when some batch has some. One batch with a line the service refused
 * and one it never got (invalid), another whose lines were never sent (the service out of reach).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, runCli } from '../helpers/pty.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let monday: string;
let tuesday: string;

const line = (courier: string, postalCode: string, number: string): string => `${JSON.stringify({ courier, country: 'NL', postal_code: postalCode, number })}\n`;

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
  const dir = env.PARCELS_CONFIG_DIR as string;
  monday = join(dir, 'mon.ndjson');
  tuesday = join(dir, 'tue.ndjson');
  // Created, refused by the service (a courier of no one's), and invalid before sending (no postcode of NL's form).
  writeFileSync(monday, line('A-BIKE', '1234AB', '1') + line('NOPE-9', '1234AB', '2') + line('A-BIKE', '12', '3'));
  writeFileSync(tuesday, line('A-BIKE', '1234AB', '4') + line('A-BIKE', '1234AB', '5'));
  const first = await parcels(['create', '--from', monday], { env });
  expect(first.code, first.stderr).toBe(6);
  const unreachable = await parcels(['create', '--from', tuesday, '--retries', '0', '--base-url', `http://127.0.0.1:${await closedPort()}`], { env });
  expect(unreachable.code, unreachable.stderr).toBe(8);
});

afterAll(async () => {
  await sandbox.close();
});

describe.skipIf(!hasPty)('batches on a terminal: the count columns', () => {
  it('FAILED counts the refused and the invalid line, INVALID the one never sent, CANCELLED the lines the outage kept back', async () => {
    const batches = await runCli(['batches'], { env, columns: 160, tz: 'UTC' });
    expect(batches.code).toBe(0);
    const [header = '', ...rows] = batches.lines.filter((text) => text !== '');
    expect(header).toMatch(/^BATCH {13}INPUT +DONE {2}FAILED {2}INVALID {2}CANCELLED {2}AGE$/);
    const row = (input: string, counts: string) => new RegExp(`^[0-9a-f]{16}  ${input.replace(/[.]/g, '\\.')} +${counts} +\\d+[sm]$`);
    expect(rows).toHaveLength(2);
    // Newest first, though both ran within the same second: Tuesday's batch, then Monday's.
    expect(rows[0]).toMatch(row(tuesday, '0 {5}0 {7}0 {8}2'));
    expect(rows[1]).toMatch(row(monday, '1 {5}2 {7}1 {8}0'));
  });
});
