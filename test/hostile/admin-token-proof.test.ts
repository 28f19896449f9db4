/**
 * Finding 2 of issue 29: the admin token file is keyed by port, and the CLI read it for any loopback
 * host, so a process listening on the same port at another loopback address (127.0.0.2, ::1) got
 * the real sandbox's token. Now the listener first proves it holds the token (an HMAC of the
 * CLI's nonce and the address the CLI reached), and the token goes only to the address that proved it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenFile, writeAdminToken } from '../../src/config/admin-token.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { TEST_SEED } from '../helpers/seed.js';

/** Every request an impostor received: its URL and headers, as text to search for the token. */
type Seen = string[];

/** A server on `host`:`port`: answers 200 with a clock, or relays each request to `relayTo`. */
async function impostor(host: string, port: number, relayTo?: string): Promise<{ seen: Seen; close(): Promise<void> } | undefined> {
  const seen: Seen = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(JSON.stringify({ url: req.url, headers: req.headers }));
    if (relayTo === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { proof: 'f'.repeat(64), now_ms: 0, now: '1970-01-01T00:00:00.000Z', frozen: false, speed: 1 } }));
      return;
    }
    const target = new URL(relayTo);
    const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
  if (!listening) return undefined;
  return {
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let sandbox: RunningSandbox;
let port: number;
const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:' });
  port = Number(new URL(sandbox.url).port);
  // As `sandbox serve` does: the token in the 0600 file of the port, with this (live) process's pid.
  await writeAdminToken(env, port, sandbox.adminToken as string);
});
afterAll(() => sandbox.close());

const refusal = (origin: string): string =>
  `Error: the server at ${origin} did not prove it holds the sandbox's admin token, so the token was not sent: ` +
  'is the sandbox still running on that port, or is another process listening there? Give --base-url the URL `parcels sandbox serve` printed\n';

describe("the admin token goes only to the listener that proves it holds it", () => {
  it('a process on the same port at 127.0.0.2 gets nothing: exit 2, the token never sent', async () => {
    const other = await impostor('127.0.0.2', port);
    expect(other).toBeDefined();
    try {
      const r = await runCli(['sandbox', 'clock', '--base-url', `http://127.0.0.2:${port}`], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(refusal(`http://127.0.0.2:${port}`));
      expect(other?.seen.length).toBeGreaterThan(0);
      for (const text of other?.seen ?? []) expect(text).not.toContain(sandbox.adminToken);
    } finally {
      await other?.close();
    }
  });

  it('nor one that relays the proof request to the real sandbox: the proof names the address the sandbox was reached on', async () => {
    const relay = await impostor('127.0.0.3', port, sandbox.url);
    try {
      const r = await runCli(['sandbox', 'clock', '--base-url', `http://127.0.0.3:${port}`], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(refusal(`http://127.0.0.3:${port}`));
      for (const text of relay?.seen ?? []) expect(text).not.toContain(sandbox.adminToken);
    } finally {
      await relay?.close();
    }
  });

  it('nor one on [::1] (where localhost often resolves); localhost still reaches the sandbox on 127.0.0.1', async () => {
    const v6 = await impostor('::1', port);
    try {
      if (v6 !== undefined) {
        const r = await runCli(['sandbox', 'clock', '--base-url', `http://[::1]:${port}`], { env });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(refusal(`http://[::1]:${port}`));
      }
      const local = await runCli(['sandbox', 'clock', '--json', '--base-url', `http://localhost:${port}`], { env });
      expect(local.code, local.stderr).toBe(0);
      expect(JSON.parse(local.stdout)).toMatchObject({ speed: 1, frozen: false });
      for (const text of v6?.seen ?? []) expect(text).not.toContain(sandbox.adminToken);
    } finally {
      await v6?.close();
    }
    expect(adminTokenFile(env, port)).toContain(`sandbox-admin-${port}.token`);
  });
});
