/**
 * Finding 6 of issue 29: `sandbox logs --follow` asked again at once when a server answered at once
 * (about 1,700 requests a second) and printed a repeated entry without end; and it exited 8 when
 * the sandbox it followed stopped. Now it pauses after a poll that brought nothing new, prints an
 * entry once, ends 0 when the sandbox says it stops, and 8 when the connection is lost without that.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { adminProof } from '../../src/schemas/admin-proof.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runCli } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';

const TOKEN = 'follow-admin-token-0001';
const ENTRY = { seq: 1, at: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/x', query: null, route: null, org: null, authorization: null, status: 200, code: null, replay: false, latency_ms: 1 };

/**
 * A sandbox impostor that knows the token (it proves it) and answers every log request at once with
 * the same entry; `page(n)` shapes the n-th log answer (1-based), 'drop' cuts the connection.
 */
async function fastServer(page: (n: number) => Record<string, unknown> | 'drop'): Promise<{ url: string; polls: number[]; close(): Promise<void> }> {
  const polls: number[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/_sandbox/v1/proof') {
      const proof = adminProof(TOKEN, url.searchParams.get('nonce') ?? '', req.socket.localAddress ?? '', req.socket.localPort ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { proof } }));
      return;
    }
    polls.push(performance.now());
    const answer = page(polls.length);
    if (answer === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: answer }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    polls,
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

const env = () => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_SANDBOX_ADMIN_TOKEN: TOKEN, PARCELS_RETRIES: '0' });

describe('sandbox logs --follow against a server that answers at once', () => {
  it('prints the repeated entry once, pauses between polls that bring nothing, and ends 0 when the sandbox says it stops', async () => {
    // Polls 1-5 repeat the entry; the 6th says the sandbox stops; the old code kept polling and is cut off at the 12th.
    const server = await fastServer((n) => (n <= 5 ? { entries: [ENTRY], latest: 1 } : n === 6 ? { entries: [], latest: 1, stopping: true } : n < 12 ? { entries: [ENTRY], latest: 1 } : 'drop'));
    try {
      const r = await runCli(['sandbox', 'logs', '--follow', '--output', 'ndjson', '--base-url', server.url], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)).toEqual([ENTRY]);
      expect(r.stderr).toBe('The sandbox stopped.\n');
      expect(server.polls).toHaveLength(6);
      // The pause after an empty poll is the request core's backoff: at least half of 200 ms, growing.
      const gaps = server.polls.slice(1).map((t, i) => t - (server.polls[i] as number));
      for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(99);
    } finally {
      await server.close();
    }
  });

  it('a connection lost without that word is exit 8', async () => {
    const server = await fastServer((n) => (n === 1 ? { entries: [ENTRY], latest: 1 } : 'drop'));
    try {
      const r = await runCli(['sandbox', 'logs', '--follow', '--output', 'ndjson', '--base-url', server.url], { env: env() });
      expect(r.code).toBe(8);
      expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('sandbox logs --follow against the real sandbox', () => {
  it('ends 0 with "The sandbox stopped." when the sandbox it follows is stopped', async () => {
    const sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', adminToken: TOKEN });
    const e = env();
    const captured = captureIO({ env: e });
    const code = run(['sandbox', 'logs', '--follow', '--output', 'ndjson', '--base-url', sandbox.url], { io: captured.io, env: e });
    await fetch(`${sandbox.url}/account/v1/couriers`, { headers: { authorization: `Bearer ${FULL_KEY}` } });
    await captured.until('stdout', '/account/v1/couriers');
    await sandbox.close();
    expect(await code).toBe(0);
    expect(captured.stderr()).toBe('The sandbox stopped.\n');
  });
});
