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

/** `sandbox serve` with `env`; resolves with its URL and the Inspector line once printed. */
function serve(env: NodeJS.ProcessEnv): { printed: Promise<{ url: string; line: string }>; stop(): Promise<number> } {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const printed = new Promise<{ url: string; line: string }>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const line = /^Inspector: .*\n/m.exec(stderr)?.[0];
      if (line !== undefined) resolve({ url: stdout.trim(), line: line.trimEnd() });
    });
  });
  return {
    printed,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('sandbox serve and the inspector', () => {
  it('with an admin token given at start, the hint says `sandbox ui` needs it too', async () => {
    const env = binaryEnv({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_SANDBOX_ADMIN_TOKEN: 'given-admin-token-123' });
    const served = serve(env);
    try {
      const { url, line } = await served.printed;
      expect(line).toMatch(new RegExp(`^Inspector: ${url}/_sandbox/ui/#code=[A-Za-z0-9_-]{32} \\(the link works once; a new one: parcels sandbox ui --base-url ${url} with the admin token in PARCELS_SANDBOX_ADMIN_TOKEN\\)$`));
      const fresh = await parcels(['sandbox', 'ui', '--base-url', url], { env });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect((await redeem(url, fresh.stdout.trim())).status).toBe(201);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('prints a login link on stderr (stdout keeps the URL alone); the printed `parcels sandbox ui` gives another', async () => {
    const env = binaryEnv({ PARCELS_CONFIG_DIR: tempConfigDir() });
    const served = serve(env);
    try {
      const { url, line } = await served.printed;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const [, link, hint] = LINK.exec(line) as unknown as [string, string, string];
      expect(link.startsWith(`${url}/_sandbox/ui/#code=`)).toBe(true);
      expect(hint).toBe(`parcels sandbox ui --base-url ${url}`);
      expect((await redeem(url, link)).status).toBe(201);
      const fresh = await parcels(hint.split(' ').slice(1), { env });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(fresh.stdout).toMatch(new RegExp(`^${url}/_sandbox/ui/#code=[A-Za-z0-9_-]{32}\\n$`));
      expect((await redeem(url, fresh.stdout.trim())).status).toBe(201);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
