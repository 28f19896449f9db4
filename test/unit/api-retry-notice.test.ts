import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

let server: Server;
let url: string;
let count = 0;

beforeAll(async () => {
  // Every other request is a 429 asking to wait 0 s: each command's first attempt is limited, its retry succeeds.
  server = createServer((req, res) => {
    if (req.url === '/deliveries/v1/reference') {
      // Table output looks up code names; without them the spec's meanings serve.
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"data":null}');
      return;
    }
    count++;
    res.writeHead(count % 2 === 1 ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end(JSON.stringify(count % 2 === 1 ? { error: { code: 'rate_limited', message: 'slow down' } } : { data: { couriers: [{ code: 'X' }] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  count = 0;
});

const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: 'notice_test_key_123456789' });

describe('retry notices', () => {
  it('off a terminal, a rate-limited wait is announced on stderr', async () => {
    const r = await runCli(['couriers'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('code\nX\n');
    expect(r.stderr).toBe('rate limited; retrying in 0.0 s (1/3)\n');
  });

  it('with --json or --quiet, stderr stays clean', async () => {
    const json = await runCli(['couriers', '--json'], { env: env() });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    const quiet = await runCli(['couriers', '--quiet'], { env: env() });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
