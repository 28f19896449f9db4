/**
 * Faults at run time under attack: a fault list from a server that proved the token but writes
 * terminal controls into its texts never reaches the terminal as controls; the sandbox keeps its
 * aimed faults bounded (count, latency, times, text) whatever a client sends.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminProof } from '../../src/schemas/admin-proof.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { TEST_SEED } from '../helpers/seed.js';

const TOKEN = 'faults-admin-token-0001';
const HOSTILE = '\u001b[2J\u001b]8;;http://evil\u0007x\u202eevil\r\u0085';

describe('sandbox faults: hostile texts and floods', () => {
  it('a fault list whose texts hold terminal controls is shown inert to a person', async () => {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/_sandbox/v1/proof') {
        const proof = adminProof(TOKEN, url.searchParams.get('nonce') ?? '', req.socket.localAddress ?? '', req.socket.localPort ?? 0);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { proof } }));
        return;
      }
      const rule = { id: `flt_${HOSTILE}`, route: HOSTILE, method: HOSTILE, path: HOSTILE, org: HOSTILE, status: 503, code: HOSTILE, remaining: null, hits: 0 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { rules: [rule], rates: { fail_rate: HOSTILE, drop_rate: 0, latency_ms: 0, retry_after_s: 1 } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_SANDBOX_ADMIN_TOKEN: TOKEN, NO_COLOR: '1' };
      const shown = await runCli(['sandbox', 'faults'], { env, tty: true });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('<U+202E>evil');
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the sandbox keeps at most 100 aimed faults, and refuses unbounded latency, times and control characters', async () => {
    const s = await startSandbox({ seed: TEST_SEED });
    try {
      const post = (body: unknown) =>
        fetch(`${s.url}/_sandbox/v1/faults`, { method: 'POST', headers: { authorization: `Bearer ${s.adminToken as string}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const statuses = new Map<number, number>();
      for (let i = 0; i < 150; i++) {
        const status = (await post({ route: 'parcels.get', status: 503 })).status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect([...statuses]).toEqual([[201, 100], [422, 50]]);
      expect(s.faults.list().rules).toHaveLength(100);
      s.faults.clear();
      for (const body of [
        { route: 'parcels.get', latency_ms: 1e12 },
        { route: 'parcels.get', latency_ms: Number.MAX_SAFE_INTEGER },
        { route: 'parcels.get', status: 503, times: 1e12 },
        { route: 'parcels.get', status: 503, retry_after_s: 1e9 },
        { route: 'parcels.get', status: 503, message: HOSTILE },
        { route: 'parcels.get', status: 503, code: HOSTILE },
        { route: 'parcels.get', status: 503, message: 'x'.repeat(2049) },
        { method: 'GET', path: `/deliveries/v1/parcels/${'a'.repeat(5000)}`, status: 503 },
      ]) {
        const r = await post(body);
        expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
      }
      const rates = await fetch(`${s.url}/_sandbox/v1/faults/rates`, { method: 'PUT', headers: { authorization: `Bearer ${s.adminToken as string}`, 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms: 600_001 }) });
      expect(rates.status).toBe(422);
      expect(s.faults.list()).toEqual({ rules: [], rates: { fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 } });
    } finally {
      await s.close();
    }
  });
});
