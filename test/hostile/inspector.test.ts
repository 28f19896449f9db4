/**
 * Attacks on the sandbox's web inspector from outside a browser: a session cookie caught by another
 * port of the host and replayed from Node with a forged Origin, file names that are properties of
 * every object, and a sandbox (or whatever answers with its token) handing `parcels sandbox ui` a
 * link to somewhere else. The attack from another port's page runs in a real Chromium in
 * test/browser/inspector.test.ts.
 */
import { createServer } from 'node:http';
import { ADMIN_PROOF_PATH, adminProof } from '../../src/schemas/admin-proof.js';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { TEST_SEED } from '../sandbox/helpers.js';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const ADMIN = 'inspector-hostile-admin-token';
const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true, adminToken: ADMIN });
afterAll(() => s.close());

async function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const response = await fetch(s.url + path, { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

describe('a session caught by another port of the host', () => {
  it('the cookie the browser also sends to every other port, replayed from Node with a forged Origin, opens nothing', async () => {
    const code = new URL(s.inspectorLink() as string).hash.slice('#code='.length);
    const login = await send('/_sandbox/ui/session', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: s.url }, body: JSON.stringify({ code }) });
    expect(login.status).toBe(201);
    // Every cookie the login set: what the browser sends with a request to /_sandbox/ui/… on any port of this host.
    const caught = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    expect(caught).not.toBe('');
    const forged = { Cookie: caught, Origin: s.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

    const read = await send('/_sandbox/ui/api/parcels', { headers: forged });
    expect(read.status).toBe(401);
    expect(JSON.parse(read.text)).toEqual({
      data: null,
      error: {
        code: 'login_required',
        message: 'the inspector needs a session: open the login link `parcels sandbox serve` printed, or get a new one with `parcels sandbox ui`',
      },
    });
    const moved = await send('/_sandbox/ui/api/clock/advance', { method: 'POST', headers: forged, body: JSON.stringify({ by: '30d' }) });
    expect(moved.status).toBe(401);
    expect(s.clock.now()).toBe(START);
    // The page of the sandbox's own origin holds the page key as well, and gets in.
    const pageKey = (JSON.parse(login.text) as { data: { page_key: string } }).data.page_key;
    expect((await send('/_sandbox/ui/api/parcels', { headers: { ...forged, 'Parcels-Inspector-Key': pageKey } })).status).toBe(200);
  });
});

describe('file names that every object has', () => {
  it('answers 404 for /_sandbox/ui/__proto__, constructor, toString and hasOwnProperty', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await send(`/_sandbox/ui/${name}`);
      expect(r.status, name).toBe(404);
      expect(JSON.parse(r.text), name).toEqual({ data: null, error: { code: 'route_not_found', message: `no inspector route GET /_sandbox/ui/${name}` } });
    }
  });
});

/** The real sandbox behind a proxy that answers POST /_sandbox/v1/ui/login with `login` and passes everything else through. */
async function proxyWithLogin(login: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/_sandbox/v1/ui/login') {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: login }));
        return;
      }
      // It holds the admin token (it stands for a sandbox answering hostile links), so it proves
      // that for its own address, as the CLI asks before sending the token.
      const asked = new URL(req.url ?? '/', 'http://x');
      if (asked.pathname === ADMIN_PROOF_PATH) {
        const proof = adminProof(ADMIN, asked.searchParams.get('nonce') ?? '', req.socket.localAddress ?? '', req.socket.localPort ?? 0);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { proof } }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      void fetch(s.url + (req.url ?? '/'), { method: req.method, headers, body }).then(async (answer) => {
        const relayed = Object.fromEntries([...answer.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)));
        res.writeHead(answer.status, relayed).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

describe('`parcels sandbox ui` prints only a link of the sandbox’s own inspector page', () => {
  const CODE = 'A'.repeat(32);
  it.each([
    ['a link to another host', { path: `//evil.example/_sandbox/ui/#code=${CODE}`, expires_in_s: 3600 }],
    ['an absolute URL elsewhere', { path: `http://evil.example/_sandbox/ui/#code=${CODE}`, expires_in_s: 3600 }],
    ['no path (it would print …/undefined)', { expires_in_s: 3600 }],
    ['another path of the sandbox', { path: `/_sandbox/ui/../../deliveries/v1/parcels#code=${CODE}`, expires_in_s: 3600 }],
    ['a code of another shape', { path: '/_sandbox/ui/#code=x%0a', expires_in_s: 3600 }],
    ['no lifetime', { path: `/_sandbox/ui/#code=${CODE}` }],
  ])('refuses %s: exit 8, nothing on stdout', async (_what, login) => {
    const proxy = await proxyWithLogin(login);
    try {
      const r = await runCli(['sandbox', 'ui', '--base-url', proxy.url], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_SANDBOX_ADMIN_TOKEN: ADMIN } });
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('Error: the sandbox did not answer a login link of its own inspector page (/_sandbox/ui/#code=… and expires_in_s)\n');
      expect(r.code).toBe(8);
    } finally {
      await proxy.close();
    }
  });

  it('prints the link of the sandbox it asked, on its own origin', async () => {
    const proxy = await proxyWithLogin({ path: `/_sandbox/ui/#code=${CODE}`, expires_in_s: 3600 });
    try {
      const r = await runCli(['sandbox', 'ui', '--base-url', proxy.url], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_SANDBOX_ADMIN_TOKEN: ADMIN } });
      expect(r).toEqual({ code: 0, stdout: `${proxy.url}/_sandbox/ui/#code=${CODE}\n`, stderr: '' });
    } finally {
      await proxy.close();
    }
  });
});
