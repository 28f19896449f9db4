/** `parcels sandbox serve` refuses a bad seed file and a busy port as usage errors (exit 2). */
import { statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

describe('sandbox serve', () => {
  it('at a terminal: the banner names the clock (frozen, speed); Ctrl-C stops it with a word, exit 0; sandbox.db is 0600 in a 0700 directory', async () => {
    for (const [flags, clock] of [
      [['--frozen'], /^Clock: frozen at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/m],
      [['--speed', '600'], /^Clock: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00, running 600× real time$/m],
      [[], /^Clock: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00, real time$/m],
    ] as const) {
      // A data directory that does not exist yet: serve makes it.
      const dir = join(tempConfigDir(), 'data');
      const env = { PARCELS_CONFIG_DIR: dir, TZ: 'Etc/GMT-1' };
      const captured = captureIO({ env, tty: true });
      const controller = new AbortController();
      const code = run(['sandbox', 'serve', '--port', '0', ...flags], { io: captured.io, env, signal: controller.signal });
      await expect.poll(() => captured.stderr(), { timeout: 10_000 }).toContain('Press Ctrl-C to stop.');
      expect(captured.stderr()).toMatch(clock);
      const db = join(dir, 'sandbox.db');
      expect(statSync(db).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      controller.abort('SIGINT');
      expect(await code).toBe(0);
      const url = captured.stdout().trim();
      expect(captured.stderr().endsWith(`Press Ctrl-C to stop.\nStopping the sandbox on ${url}…\n✓ Stopped; the data stays in ${db}\n`)).toBe(true);
      expect(statSync(db).mode & 0o777).toBe(0o600);
    }
  });

  it('a seed file breaking a rule: exit 2 naming the file, the path and the rule; nothing on stdout', async () => {
    const dir = tempConfigDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify({ organisations: [] }));
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`invalid seed file ${seed}:`);
    expect(r.stderr).toContain('organisations: must list at least one organisation');
  });

  it('every problem of a seed or scenario file on a line of its own, and as details in --json', async () => {
    const dir = tempConfigDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify({ organisations: [{ id: 'a', name: 'A', couriers: [], keys: [{ key: 'abcdefghij', scopes: ['admin'] }] }], rate_limit: { requests: 1 } }));
    const args = ['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed];
    const r = await runCli(args, { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: --seed: invalid seed file ${seed}:\n` +
        '  - organisations.0.keys.0.scopes.0: must be one of "deliveries:read", "deliveries:write", "usage:read", "oracle:read"\n' +
        '  - rate_limit.window_s: is required\n',
    );
    const json = await runCli([...args, '--json'], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        status: null, code: 'invalid_usage', message: `invalid seed file ${seed}:`, exit_code: 2, field: '--seed',
        details: [
          { field: 'organisations.0.keys.0.scopes.0', message: 'must be one of "deliveries:read", "deliveries:write", "usage:read", "oracle:read"' },
          { field: 'rate_limit.window_s', message: 'is required' },
        ],
      },
    });
    const scenarios = join(dir, 'scenarios.json');
    writeFileSync(scenarios, '{\n  "scenarios": {"x": 5},\n  "rules": 3\n}\n');
    const s = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--scenarios', scenarios], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(s.code).toBe(2);
    expect(s.stderr).toBe(
      `Error: --scenarios: invalid scenario file ${scenarios}:\n` +
        '  - line 2: scenarios.x: must be an object {"description"?, "steps": […]}\n' +
        '  - line 3: rules: must be an array of rules\n',
    );
  });

  it('a seed file that is not JSON: exit 2 naming the file', async () => {
    const dir = tempConfigDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, '{nope');
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`seed file ${seed} is not JSON (syntax error at character 2)`);
  });

  it('a port already in use: exit 2 saying so', async () => {
    const busy = createServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const port = (busy.address() as AddressInfo).port;
    try {
      const dir = tempConfigDir();
      const r = await runCli(['sandbox', 'serve', '--port', String(port), '--db', ':memory:'], { env: { PARCELS_CONFIG_DIR: dir } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use; choose another --port (0 picks a free one)`);
    } finally {
      busy.close();
    }
  });
});
