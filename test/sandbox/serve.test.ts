/** `parcels sandbox serve` refuses a bad seed file and a busy port as usage errors (exit 2). */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

describe('sandbox serve', () => {
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
