/**
 * Attacks on `doctor --wait`: a service that asks for an endless pause (503 with a Retry-After of
 * years) or rate-limits forever must not hold doctor past its --wait, nor make it a hot loop. The
 * pause is bounded by the one policy (60 s), the deadline cuts it short, and the checks then run
 * once and report the failure.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const KEY = 'hostile-wait-key-0001';
const servers: HostileServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function service(status: number, retryAfter: string): Promise<HostileServer> {
  const server = await startHostileServer(() => ({ status, headers: { 'retry-after': retryAfter }, body: { error: { code: 'busy', message: 'busy' } } }));
  servers.push(server);
  return server;
}

describe('doctor --wait against a service that asks to be waited for without end', () => {
  it.each([
    [503, '999999999', '503 Service Unavailable from the service', 8],
    [429, '99999999999999999999', 'rate limited', 7],
  ])('%i with Retry-After %s: one try, a pause said as the 60 s cap, cut short by --wait; then the checks fail the host', async (status, retryAfter, said, exitCode) => {
    const server = await service(status, retryAfter);
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY };
    // Long enough for a cold first request under load; the pause asked for is years.
    const r = await runCli(['doctor', '--wait', '5s'], { env });
    expect(r.code).toBe(exitCode);
    expect(r.stderr.split('\n')[0]).toBe(`! ${server.url} is not answering yet (${said}); trying again in 1 m`);
    // The wait's one request, then the four probes of the checks: no hot loop.
    expect(server.seen.map((s) => s.url)).toEqual([
      '/account/v1/couriers',
      ...['/account/v1/couriers', '/deliveries/v1/address/validate', '/account/v1/usage', '/deliveries/v1/oracle/coverage'],
    ]);
    expect(r.stdout).toContain(`✗ host                    ${server.url} answered ${status}`);
  });
});
