/**
 * The built binary against `parcels sandbox serve`: a fault aimed with `parcels sandbox faults add`
 * fails exactly one `attempts add` with 503; the CLI's own retry (same Idempotency-Key) succeeds,
 * and the request log marks the injected answer.
 */
import { describe, expect, it } from 'vitest';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels, serveSandbox } from '../helpers/spawn.js';

describe('sandbox faults on a running serve', () => {
  it('one POST …/attempts answered 503, the retry succeeds; faults and logs show it', async () => {
    const served = await serveSandbox(TEST_SEED);
    try {
      const env = binaryEnv({ PARCELS_CONFIG_DIR: served.dir, PARCELS_BASE_URL: served.url, PARCELS_API_KEY: FULL_KEY });
      const added = await parcels(['sandbox', 'faults', 'add', '--route', 'attempts.create', '--status', '503', '--retry-after', '0', '--times', '1', '--json'], { env });
      expect(added.code, added.stderr).toBe(0);
      const rule = JSON.parse(added.stdout) as { id: string };
      expect(rule).toEqual({ id: 'flt_1', route: 'attempts.create', status: 503, retry_after_s: 0, times: 1, remaining: 1, hits: 0 });

      const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '7', '--quiet'], { env });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      const attempt = await parcels(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--json'], { env });
      expect(attempt.code, attempt.stderr).toBe(0);
      expect(JSON.parse(attempt.stdout)).toMatchObject({ entry_id: id });

      const listed = await parcels(['sandbox', 'faults', '--json'], { env });
      expect(listed).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ rules: [{ ...rule, remaining: 0, hits: 1 }], rates: { fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 } }, null, 2)}\n`,
        stderr: '',
      });
      const logs = await parcels(['sandbox', 'logs', '--output', 'ndjson'], { env });
      expect(logs.code, logs.stderr).toBe(0);
      const posts = logs.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.route === 'attempts.create');
      expect(posts.map((e) => [e.status, e.code, e.fault])).toEqual([
        [503, 'service_unavailable', 'flt_1'],
        [201, null, null],
      ]);
      const cleared = await parcels(['sandbox', 'faults', 'clear', '--json'], { env });
      expect(cleared).toEqual({ code: 0, stdout: `${JSON.stringify({ removed: 1 }, null, 2)}\n`, stderr: '' });
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
