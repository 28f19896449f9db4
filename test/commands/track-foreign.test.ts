/**
 * `parcels track` against a server that follows the spec but is not our sandbox: records that do
 * not echo their fields, items under other keys, no status on the parcel, and a 429 mid-watch.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'foreign_track_key_5c81d2a09e';
const ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const T = 1_577_872_800;
let server: Server;
let url: string;
/** Reads of the attempts so far; the script below answers by it. */
let attemptReads = 0;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const FAILED = { time_attempt: T + 600, outcome: 1, reason: 2, sequence: 'one' };
const DELIVERED = { time_attempt: T + 1200, outcome: 0, sequence: 'two' };

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.authorization !== `Bearer ${KEY}`) return send(res, 401, { data: null });
  const path = req.url ?? '';
  if (path === `/deliveries/v1/parcels/${ID}`) return send(res, 200, { data: { entry_id: ID, stage: 'moving' } });
  if (path === `/deliveries/v1/parcels/${ID}/events`) {
    return send(res, 200, { data: { results: [{ happened: 'yesterday' }, { occurred_at: T, status: 2, source: 'scanner' }, 'noise'] } });
  }
  if (path === `/deliveries/v1/parcels/${ID}/attempts`) {
    attemptReads++;
    // The watch's second read meets a rate limit; its third finds the parcel delivered.
    if (attemptReads === 2) return send(res, 429, { data: null, error: { code: 'slow_down', message: 'too many requests' } }, { 'retry-after': '1' });
    return send(res, 200, { data: { results: attemptReads >= 3 ? [FAILED, DELIVERED, { outcome: 0 }] : [FAILED, { outcome: 0 }] } });
  }
  if (path === '/deliveries/v1/reference') return send(res, 404, { data: null });
  return send(res, 404, { data: null });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY, PARCELS_RETRIES: '0' });
const now = () => T + 3600;

describe('track against a foreign server', () => {
  it('records without their fields are shown as they are, after the ordered ones, never failing', async () => {
    attemptReads = 0;
    const r = await runCli(['track', ID], { env: env(), now });
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout:
        `entry_id\t${ID}\nstage\tmoving\n\nTimeline\n` +
        'time\tentry\tstate\treason\tdelivered\n' +
        '2020-01-01T10:00:00Z\tevent\t2 in_transit\t\t\n' +
        '2020-01-01T10:10:00Z\tattempt\t1 failed\t2 address_not_found\t\n' +
        '\tevent\t{"happened":"yesterday"}\t\t\n' +
        '\tevent\t"noise"\t\t\n' +
        '\tattempt\t{"outcome":0}\t\t\n',
    });
  });

  it('--json keeps every record, those without a time with at null', async () => {
    attemptReads = 0;
    const r = await runCli(['track', ID, '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      parcel: { entry_id: ID, stage: 'moving' },
      timeline: [
        { kind: 'event', at: T, occurred_at: T, status: 2, source: 'scanner' },
        { kind: 'attempt', at: T + 600, ...FAILED },
        { kind: 'event', at: null, happened: 'yesterday' },
        { kind: 'event', at: null, value: 'noise' },
        { kind: 'attempt', at: null, outcome: 0 },
      ],
    });
  });

  it('an attempt without its time does not count as a delivery; --watch waits out a 429 and ends at the real one', async () => {
    attemptReads = 0;
    const r = await runCli(['track', ID, '--watch', '--interval', '1', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('! too many requests; polling again in 2 s\n');
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { entry_id: ID, kind: 'event', at: T, occurred_at: T, status: 2, source: 'scanner' },
      { entry_id: ID, kind: 'attempt', at: T + 600, ...FAILED },
      { entry_id: ID, kind: 'event', at: null, happened: 'yesterday' },
      { entry_id: ID, kind: 'event', at: null, value: 'noise' },
      { entry_id: ID, kind: 'attempt', at: null, outcome: 0 },
      { entry_id: ID, kind: 'attempt', at: T + 1200, ...DELIVERED },
    ]);
    expect(attemptReads).toBe(3);
  });
});
