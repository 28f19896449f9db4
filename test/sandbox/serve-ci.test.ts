/**
 * `sandbox serve` as a CI service: the URL in a file once ready (whole, the same as stdout's), every
 * request log entry in a log file (redacted), `--log-size`, and a `:memory:` stop that says the data is gone.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { DEMO_API_KEY } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import { fileAppears } from '../helpers/wait-file.js';

describe('sandbox serve for CI', () => {
  it('--url-file holds stdout’s URL once ready; --log-file holds every entry, a key sent in a header never in it; --log-size keeps the newest in memory', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_CONFIG_DIR: dir };
    const urlFile = join(dir, 'sandbox.url');
    // Its directory is made (0700) when missing.
    const logFile = join(dir, 'artifacts', 'requests.ndjson');
    const captured = captureIO({ env });
    const controller = new AbortController();
    const code = run(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--url-file', urlFile, '--log-file', logFile, '--log-size', '2'], { io: captured.io, env, signal: controller.signal });
    await fileAppears(urlFile);
    const url = readFileSync(urlFile, 'utf8');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(readdirSync(join(dir, 'artifacts'))).toEqual(['requests.ndjson']);
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
    const base = url.trim();
    expect((await fetch(`${base}/_sandbox/health`, { method: 'HEAD' })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/account/v1/couriers`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'X-Forwarded-Key': DEMO_API_KEY } });
      expect(res.status).toBe(200);
    }
    await captured.until('stderr', 'Press Ctrl-C to stop.');
    expect(captured.stdout()).toBe(url);
    const logs = captureIO({ env });
    expect(await run(['sandbox', 'logs', '--base-url', base, '--json'], { io: logs.io, env })).toBe(0);
    expect((JSON.parse(logs.stdout()) as Array<{ seq: number }>).map((e) => e.seq)).toEqual([2, 3]);
    controller.abort('SIGTERM');
    expect(await code).toBe(0);
    expect(captured.stderr().endsWith(`Stopping the sandbox on ${base}…\n✓ Stopped; the data was in memory (--db :memory:) and is gone\n`)).toBe(true);
    const written = readFileSync(logFile, 'utf8');
    expect(written).not.toContain(DEMO_API_KEY);
    const entries = written.trimEnd().split('\n').map((line) => JSON.parse(line) as { seq: number; path: string; status: number; headers: Record<string, string> });
    expect(entries.map((e) => [e.seq, e.path, e.status, e.headers['x-forwarded-key']])).toEqual([1, 2, 3].map((seq) => [seq, '/account/v1/couriers', 200, '[redacted]']));
  });

  it('--url-file and --log-file naming FIFOs are written as `>` would: the URL whole, then the entries', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_CONFIG_DIR: dir };
    const urlFifo = join(dir, 'url.fifo');
    const logFifo = join(dir, 'log.fifo');
    execFileSync('mkfifo', [urlFifo, logFifo]);
    const urlRead = text(createReadStream(urlFifo, 'utf8'));
    const logRead = text(createReadStream(logFifo, 'utf8'));
    const captured = captureIO({ env });
    const controller = new AbortController();
    const code = run(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--url-file', urlFifo, '--log-file', logFifo], { io: captured.io, env, signal: controller.signal });
    const url = await urlRead;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect((await fetch(`${url.trim()}/account/v1/couriers`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } })).status).toBe(200);
    await captured.until('stderr', 'Press Ctrl-C to stop.');
    controller.abort('SIGTERM');
    expect(await code).toBe(0);
    expect(captured.stdout()).toBe(url);
    const lines = (await logRead).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { seq: number; route: string }).route)).toEqual(['couriers.list']);
  });
});

describe('sandbox serve with a log file that cannot be written', () => {
  it('says so when it stops (a full disk: /dev/full), the stop still a clean stop', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_CONFIG_DIR: dir };
    const captured = captureIO({ env });
    const controller = new AbortController();
    const code = run(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--log-file', '/dev/full'], { io: captured.io, env, signal: controller.signal });
    await captured.until('stderr', 'Press Ctrl-C to stop.');
    expect((await fetch(`${captured.stdout().trim()}/account/v1/couriers`)).status).toBe(401);
    controller.abort('SIGTERM');
    expect(await code).toBe(0);
    expect(captured.stderr()).toContain('\n! --log-file /dev/full: the request log file could not be written: ENOSPC: no space left on device, write\n✓ Stopped; the data was in memory (--db :memory:) and is gone\n');
  });
});
