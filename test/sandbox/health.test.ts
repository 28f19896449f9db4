/**
 * GET and HEAD /_sandbox/health: readiness for CI, without a key, 503 until the runner says ready,
 * never in the request log; and the request log's file (`logStream`): every entry, redacted.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { healthResponse } from '../../src/sandbox/health.js';
import { DEMO_API_KEY, LogFileError, manualTime, startSandbox } from '../../src/sandbox/index.js';

const START_MS = Date.parse('2026-11-28T03:00:00.000Z');

describe('/_sandbox/health', () => {
  it('GET answers 200 with status, version, start, uptime and the test clock; HEAD the same without a body; no key; not logged', async () => {
    const time = manualTime(START_MS);
    const sandbox = await startSandbox({ port: 0, time });
    try {
      time.advance(61_500);
      const get = await fetch(`${sandbox.url}/_sandbox/health`);
      expect(get.status).toBe(200);
      expect(get.headers.get('cache-control')).toBe('no-store');
      expect(get.headers.get('content-type')).toBe('application/json');
      const body =
        '{"data":{"status":"ok","version":"0.0.0-dev","started_at":"2026-11-28T03:00:00.000Z","uptime_s":61,' +
        '"clock":{"now_ms":1795834861500,"now":"2026-11-28T03:01:01.500Z","frozen":false,"speed":1}}}';
      expect(await get.text()).toBe(body);
      const head = await fetch(`${sandbox.url}/_sandbox/health?probe=1`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(await head.text()).toBe('');
      expect(sandbox.logs()).toEqual([]);
      const post = await fetch(`${sandbox.url}/_sandbox/health`, { method: 'POST' });
      expect(post.status).toBe(404);
      expect(await post.json()).toEqual({ data: null, error: { code: 'route_not_found', message: 'no route /_sandbox/health' } });
    } finally {
      await sandbox.close();
    }
  });

  it('answers 503 `starting` until beforeReady is done, then 200; a beforeReady that fails closes the sandbox and rejects', async () => {
    let url = '';
    const sandbox = await startSandbox({
      port: 0,
      beforeReady: async (started) => {
        url = started.url;
        const res = await fetch(`${url}/_sandbox/health`);
        expect(res.status).toBe(503);
        expect(await res.text()).toBe('{"data":null,"error":{"code":"starting","message":"the sandbox is starting"}}');
      },
    });
    try {
      expect(url).toBe(sandbox.url);
      expect((await fetch(`${url}/_sandbox/health`, { method: 'HEAD' })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
    let refusedAt = '';
    await expect(
      startSandbox({
        port: 0,
        beforeReady: (started) => {
          refusedAt = started.url;
          return Promise.reject(new Error('no room for the token file'));
        },
      }),
    ).rejects.toThrow('no room for the token file');
    await expect(fetch(`${refusedAt}/_sandbox/health`)).rejects.toThrow('fetch failed');
  });
});

describe('the request log file (logStream)', () => {
  it('holds every entry, one JSON line each, with headers and bodies, a key sent anywhere redacted, even those the ring let go', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    const sandbox = await startSandbox({ port: 0, logSize: 2, logStream: sink });
    const headers = { Authorization: `Bearer ${DEMO_API_KEY}`, 'X-Api-Key': DEMO_API_KEY };
    for (let i = 0; i < 4; i++) expect((await fetch(`${sandbox.url}/account/v1/couriers`, { headers })).status).toBe(200);
    expect((await fetch(`${sandbox.url}/account/v1/couriers?api_key=${DEMO_API_KEY}`, { headers })).status).toBe(400);
    expect((await fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
    await sandbox.close();
    expect(sandbox.logs().map((e) => e.seq)).toEqual([4, 5]);
    expect(text).not.toContain(DEMO_API_KEY);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.seq, e.method, e.path, e.query, e.route, e.status, e.code, e.authorization])).toEqual([
      ...[1, 2, 3, 4].map((seq) => [seq, 'GET', '/account/v1/couriers', null, 'couriers.list', 200, null, 'Bearer [redacted]']),
      [5, 'GET', '/account/v1/couriers', 'api_key=[redacted]', 'couriers.list', 400, 'unknown_parameter', 'Bearer [redacted]'],
    ]);
    expect((entries[0]?.headers as Record<string, string>)['x-api-key']).toBe('[redacted]');
    expect(JSON.stringify(entries[0]?.response_body)).toContain('"DEMO-BIKE"');
  });
});

describe('the log file writer', () => {
  it('a sink that fails: the entries stop, and close() names the failure', async () => {
    const sink = new Writable({ write: (_chunk, _encoding, done) => done(new Error('ENOSPC: no space left on device')) });
    const sandbox = await startSandbox({ port: 0, logStream: sink });
    expect((await fetch(`${sandbox.url}/account/v1/couriers`)).status).toBe(401);
    await expect(sandbox.close()).rejects.toThrow(new LogFileError('the request log file could not be written: ENOSPC: no space left on device'));
  });

  it('a stopping sandbox answers health 503 `stopping`', () => {
    const response = healthResponse({ readiness: () => 'stopping', startedAtMs: 0, uptimeMs: () => 0, clock: () => ({ now_ms: 0, now: '', frozen: false, speed: 1 }) });
    expect(response).toEqual({ status: 503, headers: { 'Cache-Control': 'no-store' }, body: '{"data":null,"error":{"code":"stopping","message":"the sandbox is stopping"}}' });
  });
});
