/**
 * Issue 29 finding 9: a server's answer nested deeper than anything the API sends is refused as a
 * bad answer (exit 8, a sentence saying so) instead of overflowing the stack ("Maximum call stack
 * size exceeded", exit 1) wherever it is walked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const DEPTH = 100_000;
const NESTED = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer(({ url }) =>
    url.includes('/missing')
      ? { status: 422, body: undefined, raw: `{"error":{"code":"bad","message":"x","details":${NESTED}}}` }
      : { status: 200, body: undefined, raw: `{"data":{"entry_id":"${ID}","courier":${NESTED}}}` },
  );
});
afterAll(() => server.close());

const REFUSAL = 'the service answered with JSON nested deeper than 256 levels; refused (a bad answer)';

describe('JSON nested without end from a server', () => {
  const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'deep-json-test-key-0001' });

  it.each([[['get', ID]], [['api', 'GET', '/deliveries/v1/parcels/missing']]])('%j: exit 8 with a sentence, no stack overflow', async (argv) => {
    const r = await runCli(argv, { env: env() });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: ${REFUSAL}\n`);
    expect(r.code).toBe(8);
  });

  it('--json: the same refusal as the one JSON error line', async () => {
    const r = await runCli(['get', ID, '--json'], { env: env() });
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({ error: { status: null, code: 'response_too_deep', message: REFUSAL, exit_code: 8 } });
    expect(r.code).toBe(8);
  });
});
