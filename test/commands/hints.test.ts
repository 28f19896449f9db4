/**
 * Recovery hints are commands the user can paste: each test provokes a hint, then runs the command
 * it names against the same server and expects it to work.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'hint_server_key_4c81e2d9a7';
const ID = '7a3e1c5b-2d4f-4e6a-8b9c-0d1e2f3a4b5c';
let server: Server;
let env: NodeJS.ProcessEnv;
let patches = 0;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A parcel someone else keeps changing: the first PATCH is cut off, its retry meets 412, and the re-read shows another weight. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  for await (const chunk of req) void chunk;
  if (req.url === `/deliveries/v1/parcels/${ID}` && req.method === 'PATCH') {
    patches++;
    if (patches % 2 === 1) return void req.socket.destroy();
    return send(res, 412, { data: null, error: { code: 'precondition_failed', message: 'stale' } });
  }
  if (req.url === `/deliveries/v1/parcels/${ID}` && req.method === 'GET') {
    return send(res, 200, { data: { entry_id: ID, parcel_weight: 999 } }, { etag: '"rev-9"' });
  }
  return send(res, 404, { data: null });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, PARCELS_API_KEY: KEY };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The first `parcels …` command quoted in a hint, as argv. */
function hintedCommand(result: CliResult): string[] {
  const hint = /^Hint: .*?`parcels ([^`]+)`/m.exec(result.stderr);
  if (hint?.[1] === undefined) throw new Error(`no pasteable command in: ${result.stderr}`);
  return hint[1].split(' ');
}

describe('hints', () => {
  it('a retried PATCH that met 412 on a changed parcel names `parcels get ID`, which works as printed', async () => {
    const patched = await runCli(['patch', ID, '--weight', '5', '--if-match', '"rev-1"', '--retries', '1'], { env });
    expect(patched.code, patched.stderr).toBe(5);
    expect(hintedCommand(patched)).toEqual(['get', ID]);
    const followed = await runCli(hintedCommand(patched), { env });
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toBe(`entry_id\t${ID}\nparcel_weight\t999\n`);
  });
});
