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

  it('a seed file that is not JSON: exit 2 naming the file', async () => {
    const dir = tempConfigDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, '{nope');
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`seed file ${seed} is not valid JSON`);
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
