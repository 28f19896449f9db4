/**
 * Finding 17 of issue 29: the sandbox answered any Host header, so a page whose name rebinds to
 * 127.0.0.1 could use the public demo key through the visitor's browser, and /openapi.json
 * advertised the foreign host. A loopback listener now answers only loopback names, its bound
 * address and the names given with --allowed-hosts; the OpenAPI server URL is the bound address.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

let sandbox: RunningSandbox;
let allowing: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ db: ':memory:' });
  allowing = await startSandbox({ db: ':memory:', allowedHosts: ['parcels.test'] });
});
afterAll(async () => {
  await sandbox.close();
  await allowing.close();
});

/** A GET to `base` with the Host header a rebinding page's browser would send. */
function get(base: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host, authorization: `Bearer ${DEMO_API_KEY}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const refused = (host: string): string =>
  JSON.stringify({
    data: null,
    error: {
      code: 'host_not_allowed',
      message: `this sandbox listens on a loopback address and answers only for loopback names and its own address, not Host ${JSON.stringify(host)}; start it with --allowed-hosts NAME to allow another name`,
    },
  });

describe('a loopback sandbox answers only for loopback names', () => {
  it('a rebinding name gets 403 host_not_allowed on the API, the admin route and /openapi.json; nothing is served', async () => {
    const port = new URL(sandbox.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
      for (const path of ['/deliveries/v1/parcels', '/_sandbox/v1/clock', '/openapi.json', '/_sandbox/ui/']) {
        expect(await get(sandbox.url, path, host), `${host} ${path}`).toEqual({ status: 403, body: refused(host) });
      }
    }
    // Another port of a loopback name is another origin too.
    expect((await get(sandbox.url, '/deliveries/v1/parcels', 'localhost:1')).status).toBe(403);
  });

  it('loopback names and the bound address are answered; the OpenAPI server is the bound address, whatever the Host', async () => {
    const port = new URL(sandbox.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost', `[::1]:${port}`, `127.0.0.2:${port}`]) {
      expect((await get(sandbox.url, '/deliveries/v1/parcels', host)).status, host).toBe(200);
      const described = JSON.parse((await get(sandbox.url, '/openapi.json', host)).body) as { servers: { variables: { base_url: { default: string } } }[] };
      expect(described.servers[0]?.variables.base_url.default).toBe(sandbox.url);
    }
  });

  it('--allowed-hosts adds names (the library option allowedHosts); a name with a port or a path is refused by the flag', async () => {
    const port = new URL(allowing.url).port;
    expect((await get(allowing.url, '/deliveries/v1/parcels', `parcels.test:${port}`)).status).toBe(200);
    expect((await get(allowing.url, '/deliveries/v1/parcels', `other.test:${port}`)).status).toBe(403);
    const bad = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--allowed-hosts', 'parcels.test:8080'], { env: { PARCELS_CONFIG_DIR: tempConfigDir() } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('Error: --allowed-hosts takes comma-separated host names or addresses without a port (got "parcels.test:8080")\n');
  });
});
