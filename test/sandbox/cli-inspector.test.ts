/** `parcels sandbox ui`: a fresh login link of a running sandbox's inspector, found as the other `sandbox` commands find it. */
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { KEY_A, TEST_SEED } from './helpers.js';

const s = await startSandbox({ seed: TEST_SEED });
afterAll(() => s.close());

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PARCELS_CONFIG_DIR: tempConfigDir(),
  PARCELS_BASE_URL: s.url,
  PARCELS_SANDBOX_ADMIN_TOKEN: s.adminToken,
  NO_COLOR: '1',
  ...extra,
});

/** Trades a link's code for a session, as the page does. */
function redeem(link: string): Promise<Response> {
  return fetch(`${s.url}/_sandbox/ui/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: s.url },
    body: JSON.stringify({ code: new URL(link).hash.slice('#code='.length) }),
  });
}

describe('parcels sandbox ui', () => {
  it('prints a fresh one-time login link on stdout, nothing else; the link opens a session once', async () => {
    const r = await runCli(['sandbox', 'ui'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^${s.url}/_sandbox/ui/#code=[A-Za-z0-9_-]{32}\\n$`));
    const link = r.stdout.trim();
    expect((await redeem(link)).status).toBe(201);
    expect((await redeem(link)).status).toBe(401);
    const json = await runCli(['sandbox', 'ui', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual({ url: expect.stringMatching(/#code=/), expires_in_s: 3600 });
    expect(json.stdout).not.toContain(s.adminToken as string);
  });

  it('never sends a customer key as admin token (the sandbox cannot prove it holds it: exit 2), and the embedded --sandbox (exit 2): it serves no page', async () => {
    const customer = await runCli(['sandbox', 'ui'], { env: env({ PARCELS_SANDBOX_ADMIN_TOKEN: KEY_A }) });
    expect(customer.code).toBe(2);
    expect(customer.stdout).toBe('');
    expect(customer.stderr).toContain("did not prove it holds the sandbox's admin token, so the token was not sent");
    expect(customer.stderr).not.toContain(KEY_A);
    const embedded = await runCli(['--sandbox', 'sandbox', 'ui'], { env: env() });
    expect(embedded.code).toBe(2);
    expect(embedded.stdout).toBe('');
    expect(embedded.stderr).toContain('the embedded sandbox (--sandbox) serves no inspector page; start `parcels sandbox serve` and run `parcels sandbox ui` without --sandbox');
  });
});
