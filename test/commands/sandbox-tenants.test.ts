/** `parcels sandbox tenants` and `parcels sandbox reset` in-process against a running sandbox over HTTP, and a tenant's base URL for every command. */
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { KEY_A, TEST_SEED } from '../helpers/seed.js';

const s = await startSandbox({ seed: TEST_SEED });
afterAll(() => s.close());

const env = (baseUrl = s.url, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PARCELS_CONFIG_DIR: tempConfigDir(),
  PARCELS_BASE_URL: baseUrl,
  PARCELS_SANDBOX_ADMIN_TOKEN: s.adminToken,
  PARCELS_API_KEY: KEY_A,
  NO_COLOR: '1',
  ...extra,
});

const CREATE = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'];

describe('parcels sandbox tenants', () => {
  it('creates, lists and removes tenants; every command works at a tenant base URL', async () => {
    const created = await runCli(['sandbox', 'tenants', 'create', 'checkout', '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const tenant = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(Object.keys(tenant)).toEqual(['name', 'url', 'path', 'created_at']);
    expect([tenant.name, tenant.url, tenant.path]).toEqual(['checkout', `${s.url}/t/checkout`, '/t/checkout']);
    expect(created.stderr).toBe('');

    const tenantUrl = `${s.url}/t/checkout`;
    const id = (await runCli(CREATE, { env: env(tenantUrl) })).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await runCli(['get', id, '--json'], { env: env(tenantUrl) })).code).toBe(0);
    // Not in the sandbox itself.
    const elsewhere = await runCli(['get', id], { env: env() });
    expect(elsewhere.code).toBe(4);
    // The admin commands act on the tenant: its own clock.
    const moved = await runCli(['sandbox', 'clock', 'advance', '2d', '--json'], { env: env(tenantUrl) });
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).now_ms - s.clock.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    const logs = await runCli(['sandbox', 'logs', '--json'], { env: env(tenantUrl) });
    expect((JSON.parse(logs.stdout) as Array<{ path: string }>).map((e) => e.path)).toEqual(['/deliveries/v1/parcels', `/deliveries/v1/parcels/${id}`]);

    const listed = await runCli(['sandbox', 'tenants', '--json'], { env: env() });
    expect(JSON.parse(listed.stdout).map((t: { url: string }) => t.url)).toEqual([tenantUrl]);

    const removed = await runCli(['sandbox', 'tenants', 'remove', 'checkout'], { env: env() });
    expect(removed).toEqual({ code: 0, stdout: '', stderr: '✓ Removed tenant checkout and everything in it\n' });
    const gone = await runCli(['sandbox', 'tenants', 'remove', 'checkout'], { env: env() });
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain('no tenant named "checkout"');
    const empty = await runCli(['sandbox', 'tenants'], { env: env() });
    expect(empty).toEqual({ code: 0, stdout: '', stderr: 'No tenants.\n' });
  });

  it('bad input: exit 2 naming the argument and the rule; no tenants in the embedded sandbox', async () => {
    const cases: Array<[string[], string]> = [
      [['create'], 'Error: NAME: tenants create needs a name, e.g. parcels sandbox tenants create checkout\n'],
      [['create', 'Bad_Name'], 'Error: NAME: a tenant\'s name must be 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (got "Bad_Name")\n'],
      [['rename', 'x'], 'Error: unknown tenants action "rename"; use one of list, create, remove\n'],
      [['remove', 'x', '--seed', 'f.json'], 'Error: --seed goes with tenants create, not tenants remove\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(['sandbox', 'tenants', ...args], { env: env('http://127.0.0.1:9') });
      expect(r, args.join(' ')).toEqual({ code: 2, stdout: '', stderr });
    }
    const embedded = await runCli(['--sandbox', 'sandbox', 'tenants'], { env: env() });
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toBe('Error: the embedded sandbox (--sandbox) keeps no tenants between commands; manage the tenants of a running `parcels sandbox serve` with --base-url URL\n');
  });
});

describe('parcels sandbox reset against a running sandbox', () => {
  it('empties it back to its seed, its moved clock back to real time; a tenant alone when given its URL', async () => {
    s.tenants.create('other');
    const otherUrl = `${s.url}/t/other`;
    expect((await runCli(CREATE, { env: env(otherUrl) })).code).toBe(0);
    expect((await runCli(CREATE, { env: env() })).code).toBe(0);
    s.clock.advance(86_400_000);
    // doctor names the reset that brings the clock back, at the base URL typed.
    const doctor = await runCli(['doctor', '--json', '--base-url', s.url], { env: env() });
    const clockCheck = (JSON.parse(doctor.stdout) as { checks: Array<{ check: string; detail: string }> }).checks.find((c) => c.check === 'clock');
    expect(clockCheck?.detail).toMatch(
      new RegExp(`^the sandbox runs a test clock, moved on purpose: this machine's clock is \\d+ [a-z]+( \\d+ [a-z]+)? behind it; to start over: \`parcels sandbox reset --base-url ${s.url.replace(/\./g, '\\.')}\` \\(it empties the sandbox back to its seed, its clock at real time\\)$`),
    );

    const refused = await runCli(['sandbox', 'reset', '--base-url', s.url], { env: env() });
    expect(refused.code).toBe(2);
    const reset = await runCli(['sandbox', 'reset', '--yes', '--base-url', s.url], { env: env() });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toBe('');
    expect(reset.stderr).toMatch(new RegExp(`^✓ Reset the sandbox at ${s.url.replace(/\./g, '\\.')} to its seed; its clock runs at real time \\(\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\n$`));
    expect(Math.abs(s.clock.now() - Date.now())).toBeLessThan(60_000);
    const listed = async (baseUrl: string) => (JSON.parse((await runCli(['list', '--json'], { env: env(baseUrl) })).stdout) as { parcels: unknown[] }).parcels;
    expect(await listed(s.url)).toEqual([]);
    // The tenant kept its parcel; reset at its URL empties it.
    expect(await listed(otherUrl)).toHaveLength(1);
    expect((await runCli(['sandbox', 'reset', '--yes', '--base-url', otherUrl], { env: env() })).code).toBe(0);
    expect(await listed(otherUrl)).toEqual([]);
  });
});

describe('help', () => {
  it('of sandbox clock and sandbox reset says a reset is the only way back to real time', async () => {
    const clock = await runCli(['sandbox', 'clock', '--help'], { env: env() });
    expect(clock.stdout).toContain('\nThe clock only moves forward; `parcels sandbox reset` (which empties the sandbox too) is the only way back to real time.\n');
    const reset = await runCli(['sandbox', 'reset', '--help'], { env: env() });
    expect(reset.stdout).toContain('its test clock runs at real time again - the only way back from a moved clock.\n');
  });
});
