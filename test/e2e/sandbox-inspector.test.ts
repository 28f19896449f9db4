/** The built CLI: `sandbox serve` prints the inspector's login link on stderr, and its hint (`sandbox ui`) runs as printed. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const LINK = /^Inspector: (http:\/\/127\.0\.0\.1:\d+\/_sandbox\/ui\/#code=[A-Za-z0-9_-]{32}) \(the link works once; a new one: (parcels sandbox ui --base-url http:\/\/127\.0\.0\.1:\d+)\)$/m;

function redeem(url: string, link: string): Promise<Response> {
  return fetch(`${url}/_sandbox/ui/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify({ code: new URL(link).hash.slice('#code='.length) }),
  });
}

describe('sandbox serve and the inspector', () => {
  it('prints a login link on stderr (stdout keeps the URL alone); the printed `parcels sandbox ui` gives another', async () => {
    const env = binaryEnv({ PARCELS_CONFIG_DIR: tempConfigDir() });
    const serve = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number>((resolve) => serve.on('close', (code) => resolve(code ?? -1)));
    let stdout = '';
    let stderr = '';
    serve.stdout.setEncoding('utf8');
    serve.stderr.setEncoding('utf8');
    const found = new Promise<RegExpExecArray>((resolve) => {
      serve.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const match = LINK.exec(stderr);
        if (match !== null) resolve(match);
      });
    });
    serve.stdout.on('data', (chunk: string) => (stdout += chunk));
    try {
      const [, link, hint] = (await found) as unknown as [string, string, string];
      const url = stdout.trim();
      expect(stdout).toBe(`${url}\n`);
      expect(link.startsWith(`${url}/_sandbox/ui/#code=`)).toBe(true);
      expect(hint).toBe(`parcels sandbox ui --base-url ${url}`);
      expect((await redeem(url, link)).status).toBe(201);
      const fresh = await parcels(hint.split(' ').slice(1), { env });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(fresh.stdout).toMatch(new RegExp(`^${url}/_sandbox/ui/#code=[A-Za-z0-9_-]{32}\\n$`));
      expect((await redeem(url, fresh.stdout.trim())).status).toBe(201);
    } finally {
      serve.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
