/**
 * Finding 8 of issue 29: `Parcels-Test-Clock` was believed from any service, so a service on another
 * host back-dated `events add` by 20 years without a warning. Now it is believed only from the
 * embedded sandbox, a loopback address or a profile marked as a sandbox (`sandbox yes`); from
 * anywhere else it is ignored with a warning. Doctor's clock check follows the same rule.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const YEAR_S = 365 * 86_400;
const nowS = (): number => Math.floor(Date.now() / 1000);
/** An address of this machine that is not loopback: the service is "another host" to the CLI. */
const address = Object.values(networkInterfaces()).flat().find((a) => a !== undefined && !a.internal && a.family === 'IPv4')?.address;

const sent: number[] = [];
let url = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    if (req.method === 'POST') sent.push((JSON.parse(body) as { occurred_at: number }).occurred_at);
    res.sendDate = false;
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', date: new Date(Date.now() - 20 * YEAR_S * 1000).toUTCString(), 'parcels-test-clock': 'moved' });
    res.end(JSON.stringify(req.method === 'POST' ? { data: { entry_id: 'e1', status: 2 } } : { data: { couriers: [], parcels: [], next_cursor: null } }));
  });
});
beforeAll(async () => {
  if (address === undefined) return;
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  url = `http://${address}:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())));

const UNTRUSTED =
  "! The service says its clock is a test clock (Parcels-Test-Clock), but it is not the sandbox, a loopback address or a profile marked as a sandbox: its Date is judged as any service's (if it is a sandbox of yours: parcels config set sandbox yes)\n";

/** A config directory whose profile "ci" is marked as a sandbox. */
function markedProfile(): string {
  const dir = tempConfigDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ current_profile: 'ci', profiles: { ci: { sandbox: 'yes' } } }), { mode: 0o600 });
  return dir;
}

describe.runIf(address !== undefined)('a test clock is believed only from a sandbox', () => {
  it('from another host: ignored with a warning, and its 20-year-old Date never back-dates a write', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: 'hostile-clock-key-0001' };
    const first = await runCli(['events', 'add', ID, '--status', '2', '--json'], { env });
    const second = await runCli(['events', 'add', ID, '--status', '2', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.stderr).toBe(UNTRUSTED + "! The service's clock is 20 y behind this machine's (from its Date header); one answer says so: nothing is corrected until another agrees\n");
    expect(second.stderr).toBe(
      UNTRUSTED +
        "! The service's clock is 20 y behind this machine's (from its Date header); not corrected, being over 1 h: fix the clock that is wrong, or set PARCELS_TRUST_CLOCK_SKEW=1 to correct times by it\n",
    );
    expect(sent).toHaveLength(2);
    for (const at of sent) expect(Math.abs(at - nowS())).toBeLessThan(60);
  });

  it('from a profile the user marked as a sandbox (config set sandbox yes): believed, without a warning', async () => {
    const dir = markedProfile();
    const set = await runCli(['config', 'get', 'sandbox'], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(set.stdout).toBe('yes\n');
    const env = { PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: url, PARCELS_API_KEY: 'hostile-clock-key-0001' };
    // The first answer teaches the test clock; the next command's write is made on it.
    const learned = await runCli(['couriers', '--json'], { env });
    const r = await runCli(['events', 'add', ID, '--status', '2', '--json'], { env });
    expect(learned.stderr).toBe('');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(Math.abs((sent.at(-1) as number) - (nowS() - 20 * YEAR_S))).toBeLessThan(60);
  });

  it("doctor's clock check uses the same rule", async () => {
    const clock = async (dir: string) => {
      const r = await runCli(['doctor', '--json'], { env: { PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: url, PARCELS_API_KEY: 'hostile-clock-key-0001' } });
      return (JSON.parse(r.stdout) as { checks: { check: string; result: string; detail: string }[] }).checks.find((c) => c.check === 'clock');
    };
    const other = await clock(tempConfigDir());
    expect(other?.result).toBe('failure');
    expect(other?.detail).toMatch(/^this machine's clock is \d+ y( \d+ [a-z]+)? ahead of the service \(it says it runs a test clock, which is believed only from a sandbox\)$/);
    const marked = await clock(markedProfile());
    expect(marked?.result).toBe('ok');
    expect(marked?.detail).toMatch(/^the sandbox runs a test clock, moved on purpose: this machine's clock is \d+ y( \d+ [a-z]+)? ahead of it; to start over: restart it on a new database, e\.g\. `parcels sandbox serve --db :memory:` \(it starts empty: no data is kept\)$/);
    expect(marked?.detail).not.toContain('NTP');
  });
});
