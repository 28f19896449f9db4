/**
 * The one retry loop (src/api/core/retry.ts), counted as each caller says: a one-shot command's
 * 429s spend its --retries (exit 7 once they are spent); a bulk line's pauses never count, so a run
 * at the rate limit fails no line with the same --retries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const KEY = 'retry-counting-test-key-0001';
const LIMITED = { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'rate_limited', message: 'slow down' } } };
let server: HostileServer | undefined;
afterEach(() => server?.close());

describe('how the retry piece counts', () => {
  it('one-shot: --retries 2 against a service that keeps answering 429 sends 3 requests and exits 7', async () => {
    server = await startHostileServer(() => LIMITED);
    const r = await runCli(['couriers', '--retries', '2'], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('rate limited; retrying in 0.0 s (1/2)\nrate limited; retrying in 0.0 s (2/2)\nError: slow down\nHint: rate limited: wait 0 s and try again (or raise --retries)\n');
    expect(r.code).toBe(7);
    expect(server.seen).toHaveLength(3);
  });

  it('bulk: with the same --retries 2, each line answered 429 four times before it is created fails no line', async () => {
    const live: HostileServer = (server = await startHostileServer(({ method }) => {
      if (method !== 'POST') return { status: 404, body: {} };
      const last = live.seen[live.seen.length - 1];
      const key = last?.headers['idempotency-key'];
      const tries = live.seen.filter((s) => s.headers['idempotency-key'] === key).length;
      return tries <= 4 ? LIMITED : { status: 201, body: { data: { entry_id: `id-${String(key)}` } } };
    }));
    const dir = tempConfigDir();
    const input = join(dir, 'lines.ndjson');
    writeFileSync(input, [1, 2, 3].map((n) => `{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"${n}"}\n`).join(''));
    const r = await runCli(['create', '--from', input, '--retries', '2', '--concurrency', '1'], { env: { PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: live.url, PARCELS_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { line: number; ok: boolean; outcome: string });
    expect(lines.map((l) => [l.line, l.ok, l.outcome])).toEqual([
      [1, true, 'created'],
      [2, true, 'created'],
      [3, true, 'created'],
    ]);
    expect(live.seen).toHaveLength(15);
  });
});
