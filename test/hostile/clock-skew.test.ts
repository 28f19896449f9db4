/**
 * Attacks on the clock-skew correction through whole commands: a Date header 20 years old, stale
 * and error answers, a sandbox's moved test clock (trusted, not warned about) and its drift fault
 * (never a test clock), the warning once per target, and doctor reading a 401's Date.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';

const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const KEY = 'hostile-skew-key-0001';
const YEAR_S = 365 * 86_400;
const nowS = (): number => Math.floor(Date.now() / 1000);

const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** A service whose every answer carries `date` (and `headers`), with `status`. */
async function service(answer: { status?: number; date: () => string; headers?: Record<string, string> }): Promise<HostileServer> {
  const server = await startHostileServer(({ method }) => ({
    status: answer.status ?? (method === 'POST' ? 201 : 200),
    headers: { date: answer.date(), ...answer.headers },
    body: method === 'POST' ? { data: { entry_id: 'e1', status: 2 } } : { data: { couriers: [] } },
  }));
  servers.push(server);
  return server;
}

/** `occurred_at` of every event the server received. */
function sentTimes(server: HostileServer): number[] {
  return server.seen.filter((r) => r.method === 'POST').map((r) => (JSON.parse(r.body) as { occurred_at: number }).occurred_at);
}

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const s = await startSandbox({ seed: TEST_SEED, db: ':memory:', ...options });
  servers.push(s);
  return s;
}

describe('a Date header 20 years old never back-dates a write', () => {
  it('after any number of answers the event is sent at this machine\'s now; said when first seen, then why it is not corrected', async () => {
    const server = await service({ date: () => new Date(Date.now() - 20 * YEAR_S * 1000).toUTCString() });
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY };
    const stderrs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runCli(['events', 'add', ID, '--status', '2', '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      stderrs.push(r.stderr);
    }
    for (const at of sentTimes(server)) expect(Math.abs(at - nowS())).toBeLessThan(60);
    // Said when the first answer shows it; agreed by the second: warned why not, on stderr even with --json.
    expect(stderrs[0]).toBe("! The service's clock is 20 y behind this machine's (from its Date header); one answer says so: nothing is corrected until another agrees\n");
    expect(stderrs[1]).toMatch(/^! The service's clock is 20 y behind this machine's \(from its Date header\); not corrected, being over 1 h: fix the clock that is wrong, or set PARCELS_TRUST_CLOCK_SKEW=1 to correct times by it\n$/);
    expect(stderrs[2]).toBe('');

    // Told to trust it, the next write is corrected.
    const trusted = await runCli(['events', 'add', ID, '--status', '2', '--json'], { env: { ...env, PARCELS_TRUST_CLOCK_SKEW: '1' } });
    expect(trusted.code).toBe(0);
    expect(Math.abs((sentTimes(server).at(-1) as number) - (nowS() - 20 * YEAR_S))).toBeLessThan(60);
  });

  it('stale answers (an Age header) and error answers teach nothing', async () => {
    for (const answer of [{ headers: { age: '600' } }, { status: 503 }]) {
      const server = await service({ date: () => new Date(Date.now() - 600_000).toUTCString(), ...answer });
      const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0' };
      for (let i = 0; i < 3; i++) await runCli(['couriers', '--json'], { env });
      const r = await runCli(['events', 'add', ID, '--status', '2', '--dry-run', '--json'], { env });
      expect(r.stderr).toBe('');
      const sent = JSON.parse(r.stdout) as { body: { occurred_at: number } }[] | { body: { occurred_at: number } };
      const body = (Array.isArray(sent) ? sent[0] : sent)?.body as { occurred_at: number };
      expect(Math.abs(body.occurred_at - nowS())).toBeLessThan(60);
    }
  });
});

describe("the sandbox's test clock", () => {
  it('moved: the Parcels-Test-Clock header says so, the CLI trusts it beyond the bound and never warns; ages count from it', async () => {
    const s = await sandbox({});
    const plain = await fetch(`${s.url}/account/v1/couriers`, { headers: { authorization: `Bearer ${FULL_KEY}` } });
    expect(plain.headers.get('parcels-test-clock')).toBeNull();
    s.clock.advance(2 * 86_400_000);
    s.clock.setSpeed(600);
    const moved = await fetch(`${s.url}/account/v1/couriers`, { headers: { authorization: `Bearer ${FULL_KEY}` } });
    expect(moved.headers.get('parcels-test-clock')).toBe('moved, speed=600');

    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: s.url, PARCELS_API_KEY: FULL_KEY };
    const created = await runCli(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '-q'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    const id = created.stdout.trim();
    // No --at: now is the test clock's (an event before the parcel's creation would be refused).
    const event = await runCli(['events', 'add', id, '--status', '2', '--json'], { env });
    expect(event.code, event.stderr).toBe(0);
    expect(event.stderr).toBe('');
    const occurred = (JSON.parse(event.stdout) as { occurred_at: number }).occurred_at;
    expect(Math.abs(occurred * 1000 - s.clock.now())).toBeLessThan(600 * 60_000);
    expect(occurred - nowS()).toBeGreaterThan(86_400);
  });

  it('frozen says so too; the Date-drift fault and --clock-offset never do', async () => {
    const frozen = await sandbox({ frozen: true });
    const drift = await sandbox({ tracking: { dateDriftSPerHour: 3600 }, clockOffset: -7200 });
    const header = async (url: string) => (await fetch(`${url}/account/v1/couriers`, { headers: { authorization: `Bearer ${FULL_KEY}` } })).headers.get('parcels-test-clock');
    expect(await header(frozen.url)).toBe('frozen');
    expect(await header(drift.url)).toBeNull();
  });
});

describe('the warning against a skewed service', () => {
  it('one line, once per target and change across commands; stdout stays pure JSON', async () => {
    const s = await sandbox({ clockOffset: -600 });
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: s.url, PARCELS_API_KEY: FULL_KEY };
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await runCli(['couriers', '--json'], { env }));
    expect(runs.map((r) => r.stderr.replace(/\d+ s\)/, 'N s)'))).toEqual([
      expect.stringMatching(/^! The service's clock is (9 m 59 s|10 m|10 m 1 s) behind this machine's \(from its Date header\); one answer says so: nothing is corrected until another agrees\n$/),
      expect.stringMatching(/^! The service's clock is (9 m 59 s|10 m|10 m 1 s) behind this machine's \(from its Date header\); times given as now, -15m or today 14:30 are corrected by it\n$/),
      '',
    ]);
    for (const r of runs) expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  });
});

describe("doctor's clock check", () => {
  it("uses the Date header of any answer, a 401's included", async () => {
    const s = await sandbox({ clockOffset: 600 });
    const r = await runCli(['doctor', '--json'], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: s.url, PARCELS_API_KEY: 'not_a_known_key_0000' } });
    const report = JSON.parse(r.stdout) as { clock_skew_s: number; checks: { check: string; result: string }[] };
    expect(report.clock_skew_s).toBeGreaterThanOrEqual(599);
    expect(report.clock_skew_s).toBeLessThanOrEqual(601);
    expect(report.checks.find((c) => c.check === 'clock')?.result).toBe('failure');
  });
});
