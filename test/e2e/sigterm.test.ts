/**
 * SIGTERM while a command is writing: exit 143 and nothing half-written, neither on stdout (a
 * stream of whole NDJSON lines) nor in the config directory (no partial file, no temp file left).
 * The built binary is spawned against a local server that answers the first page and then holds
 * the next request open, so the signal lands mid-command at a known point.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const KEY = 'sigterm_test_key_4f2a9c1e7b';
const PAGE = Array.from({ length: 500 }, (_, i) => ({ entry_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, status: 1, courier: 'C-1' }));

/** A server that answers `answer` and holds any request it returns false for, telling the test when one arrives. */
async function holdingServer(answer: (req: IncomingMessage, res: ServerResponse) => boolean) {
  let held: () => void = () => undefined;
  const heldRequest = new Promise<void>((resolve) => (held = resolve));
  const server = createServer((req, res) => {
    if (!answer(req, res)) held();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heldRequest,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Spawns the binary, sends `signal` once the server holds a request, and collects what it wrote. */
async function signalledMidway(args: string[], env: NodeJS.ProcessEnv, heldRequest: Promise<void>, input?: string) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(input ?? '');
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await heldRequest;
  child.kill('SIGTERM');
  return { code: await exited, stdout, stderr };
}

describe('SIGTERM mid-write', () => {
  it('list --all --output ndjson: exit 143, stdout holds whole lines of the first page and nothing else', async () => {
    const server = await holdingServer((req, res) => {
      if (req.url?.includes('cursor=')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { items: PAGE, next_cursor: 'page-2' } }));
      return true;
    });
    try {
      const env = binaryEnv({ PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY });
      const result = await signalledMidway(['list', '--all', '--output', 'ndjson'], env, server.heldRequest);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 143, stderr: '' });
      // The CLI may still be writing the first page when the second request goes out: what it wrote
      // must then end at a line boundary. Today it writes the page before asking for the next.
      const page = PAGE.map((item) => `${JSON.stringify(item)}\n`).join('');
      expect(page.startsWith(result.stdout)).toBe(true);
      expect(result.stdout).toMatch(/^(.+\n)+$/);
    } finally {
      server.close();
    }
  });

  it('auth login while the key is being checked: exit 143, the config directory exactly as before', async () => {
    const server = await holdingServer(() => false);
    try {
      const env = binaryEnv();
      const dir = env.PARCELS_CONFIG_DIR as string;
      // (--profile must name a saved profile, so the setting goes to the default one, which always may be named.)
      expect((await parcels(['config', 'set', 'output', 'json'], { env })).code).toBe(0);
      const before = { files: readdirSync(dir).sort(), config: readFileSync(join(dir, 'config.json'), 'utf8') };
      const result = await signalledMidway(['auth', 'login', '--profile', 'new', '--base-url', server.url, '--with-key-stdin'], env, server.heldRequest, KEY);
      expect(result).toEqual({ code: 143, stdout: '', stderr: '' });
      expect({ files: readdirSync(dir).sort(), config: readFileSync(join(dir, 'config.json'), 'utf8') }).toEqual(before);
      expect(before.config).not.toContain(KEY);
    } finally {
      server.close();
    }
  });
});
