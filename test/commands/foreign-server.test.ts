/**
 * The CLI against a server that follows the spec but is not our sandbox: other item keys, other
 * record fields, weak ETags, a cursor that ends as "", terse error bodies. Only `data`, `entry_id`,
 * `next_cursor` and the ETag are promised by the spec, so only those may be relied on.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'foreign_server_key_93be41d07c';
const ID = '5f0c2a9e-8d41-4b7a-9c3e-1f2d3c4b5a69';
const seen: { method: string; url: string; ifMatch?: string; body: string }[] = [];
let server: Server;
let url: string;
let weight = 100;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  seen.push({ method: req.method ?? '', url: req.url ?? '', ifMatch: req.headers['if-match'], body });
  if (req.headers.authorization !== `Bearer ${KEY}`) return send(res, 401, { data: null, message: 'bad key' });
  const path = (req.url ?? '').split('?')[0];
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  if (req.method === 'GET' && path === '/deliveries/v1/parcels') {
    // Two pages; the end of the list is an empty cursor.
    if (query.get('cursor') === null) return send(res, 200, { data: { items: [{ entry_id: 'a', stage: 'x' }], next_cursor: 'p2' } });
    return send(res, 200, { data: { items: [{ entry_id: 'b', stage: 'y' }], next_cursor: '' } });
  }
  if (path === `/deliveries/v1/parcels/${ID}`) {
    const etag = `W/"rev-${weight}"`;
    if (req.method === 'GET') return send(res, 200, { data: { entry_id: ID, mass: weight } }, { etag });
    if (req.method === 'PATCH') {
      if (req.headers['if-match'] !== etag) return send(res, 412, { data: null, error: 'stale' });
      weight = (JSON.parse(body) as { parcel_weight: number }).parcel_weight;
      return send(res, 200, { data: { entry_id: ID, mass: weight } });
    }
  }
  if (req.method === 'GET' && path === '/deliveries/v1/reference') return send(res, 404, { data: null });
  return send(res, 404, { data: null, message: 'no such thing' });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('against a foreign server', () => {
  const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY });

  it('list --all follows next_cursor until it is empty, whatever the items are called', async () => {
    const r = await runCli(['list', '--all', '--output', 'ndjson'], { env: env() });
    expect(r).toEqual({ code: 0, stdout: '{"entry_id":"a","stage":"x"}\n{"entry_id":"b","stage":"y"}\n', stderr: '' });
  });

  it('one page as JSON is the data exactly, cursor included', async () => {
    const r = await runCli(['list', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ items: [{ entry_id: 'a', stage: 'x' }], next_cursor: 'p2' });
  });

  it('get caches a weak ETag verbatim and patch sends it back unchanged', async () => {
    const shared = env();
    expect((await runCli(['get', ID, '--json'], { env: shared })).code).toBe(0);
    const patched = await runCli(['patch', ID, '--weight', '250', '--json'], { env: shared });
    expect(patched).toEqual({ code: 0, stdout: `{\n  "entry_id": "${ID}",\n  "mass": 250\n}\n`, stderr: '' });
    expect(seen.filter((r) => r.method === 'PATCH').at(-1)).toMatchObject({ ifMatch: 'W/"rev-100"', body: '{"parcel_weight":250}' });
  });

  it('a 412 with a terse body is exit 5 with the explanation', async () => {
    const r = await runCli(['patch', ID, '--weight', '7', '--if-match', 'W/"rev-1"'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error: Precondition Failed (stale)');
    expect(r.stderr).toContain('the parcel changed since you read it');
  });

  it('a record with unknown fields renders generically; a missing reference route only costs the names', async () => {
    const r = await runCli(['get', ID], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^entry_id\\t${ID}\\nmass\\t\\d+\\n$`));
  });

  it('a 401 with a message body is exit 3, and the key is never printed', async () => {
    const r = await runCli(['list'], { env: { ...env(), PARCELS_API_KEY: 'wrong_key_0123456789' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: bad key');
    expect(r.stderr + r.stdout).not.toContain('wrong_key_0123456789');
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });
});
