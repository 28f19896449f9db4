/**
 * Finding 13 of issue 29: with a symbolic link where its token file goes, `sandbox serve` printed
 * "Error" but kept serving with an admin route nobody could use. Now it refuses before listening,
 * exit 2, and the link's target is untouched.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { adminTokenFile } from '../../src/config/admin-token.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

/** A port free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const refusesConnections = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(false)));
    socket.on('error', () => resolve(true));
  });

describe('sandbox serve with a link where its token file goes', () => {
  it('refuses before listening: exit 2, nothing on stdout, the link target untouched', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_CONFIG_DIR: dir };
    const port = await freePort();
    const file = adminTokenFile(env, port);
    mkdirSync(join(file, '..'), { recursive: true });
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'do not touch\n');
    symlinkSync(target, file);

    const captured = captureIO({ env });
    const cancel = new AbortController();
    const code = run(['sandbox', 'serve', '--port', String(port), '--db', ':memory:'], { io: captured.io, env, signal: cancel.signal });
    // The old code served on: stop it once it says so, which fails the test below.
    const outcome = await Promise.race([code, captured.until('stderr', 'Press Ctrl-C').then(() => 'serving' as const)]);
    if (outcome === 'serving') {
      cancel.abort('SIGTERM');
      await code;
    }
    expect(outcome).toBe(2);
    expect(captured.stdout()).toBe('');
    expect(captured.stderr()).toMatch(new RegExp(`^Error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a symbolic link; refusing to write through it\\n`));
    expect(readFileSync(target, 'utf8')).toBe('do not touch\n');
    expect(await refusesConnections(port)).toBe(true);
  });
});
