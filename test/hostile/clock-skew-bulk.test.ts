/**
 * Attacks on bulk runs and the outbox through a skewed service: the five-minute rule is checked
 * against the same corrected now as a single `events add`, so a line is neither refused locally
 * for a time the service takes nor sent with a time the service refuses; capture times are the service's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const KEY = 'hostile-skew-key-0002';
const SKEW_S = 1800;
const nowS = (): number => Math.floor(Date.now() / 1000);

const servers: HostileServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** A service whose clock is `skewS` ahead of this machine's (behind when negative); `up` false answers 503. */
async function skewedService(skewS: number, up: () => boolean = () => true): Promise<HostileServer> {
  const server = await startHostileServer(({ method }) => ({
    status: !up() ? 503 : method === 'POST' ? 201 : 200,
    headers: { date: new Date(Date.now() + skewS * 1000).toUTCString() },
    body: method === 'POST' ? { data: { entry_id: ID, status: 2 } } : { data: { couriers: [] } },
  }));
  servers.push(server);
  return server;
}

/** Learns the service's skew as any command does: two fresh answers that agree. */
async function learnSkew(env: Record<string, string>): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await runCli(['couriers', '--json'], { env })).code).toBe(0);
}

function linesFile(lines: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'parcels-skew-bulk-')), 'events.ndjson');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const sentTimes = (server: HostileServer): number[] =>
  server.seen.filter((r) => r.method === 'POST').map((r) => (JSON.parse(r.body) as { occurred_at: number }).occurred_at);

describe('bulk --at now against a service 30 min ahead (a trusted skew)', () => {
  it('sends every line at the service\'s now instead of refusing it as in the future', async () => {
    const server = await skewedService(SKEW_S);
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY };
    await learnSkew(env);
    const r = await runCli(['events', 'add', '--from', linesFile([{ entry_id: ID }, { entry_id: ID }]), '--status', '2', '--at', 'now'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { ok: boolean }).ok)).toEqual([true, true]);
    const times = sentTimes(server);
    expect(times).toHaveLength(2);
    for (const at of times) expect(Math.abs(at - (nowS() + SKEW_S))).toBeLessThan(60);
  });
});

describe('bulk against a service 30 min behind', () => {
  it('refuses locally a line the service would refuse as more than five minutes in its future, and sends nothing for it', async () => {
    const server = await skewedService(-SKEW_S);
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY };
    await learnSkew(env);
    const ahead = nowS() - SKEW_S + 600;
    const r = await runCli(['events', 'add', '--from', linesFile([{ entry_id: ID, occurred_at: ahead }, { entry_id: ID, occurred_at: nowS() - SKEW_S }]), '--status', '2'], { env });
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; ok: boolean; error?: { code: string; field: string; message: string } });
    expect(results.map((x) => [x.line, x.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(results[0]?.error).toEqual({ code: 'invalid_line', field: 'occurred_at', message: 'occurred_at must not be more than five minutes in the future' });
    const sent = sentTimes(server);
    expect(sent).toHaveLength(1);
    expect(sent).not.toContain(ahead);
  });
});

describe('the outbox against a service 30 min behind', () => {
  it('keeps the capture time on the service\'s clock, the clock of the event it holds', async () => {
    let up = true;
    const server = await skewedService(-SKEW_S, () => up);
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0' };
    await learnSkew(env);
    up = false;
    const queued = await runCli(['events', 'add', ID, '--status', '2', '--queue'], { env });
    expect(queued.stderr).toMatch(/^! queued \(1 waiting\)/);
    const event = JSON.parse(server.seen.filter((r) => r.method === 'POST').at(-1)?.body as string) as { occurred_at: number };
    const listed = JSON.parse((await runCli(['outbox', '--json'], { env })).stdout) as { captured_at: string; age: number }[];
    expect(listed).toHaveLength(1);
    const captured = Date.parse(listed[0]?.captured_at as string) / 1000;
    expect(Math.abs(captured - event.occurred_at)).toBeLessThan(60);
    expect(Math.abs(captured - (nowS() - SKEW_S))).toBeLessThan(60);
    // Its age counts on the same clock: seconds, not half an hour.
    expect(listed[0]?.age).toBeLessThan(10);
  });
});
