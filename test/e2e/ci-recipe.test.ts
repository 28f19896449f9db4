/**
 * The CI recipe of docs/sandbox.md ("A CI service", "Plain shell"), run as written with the built
 * CLI on loopback: `npm test` (the job's own suite) is a stand-in on PATH that uses the sandbox the
 * recipe started, with a key and the admin token sent where the log could keep them.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/sandbox.md', import.meta.url));
const DEMO_KEY = 'sbx_demo_9f2c4e7a1b3d5f60';
const ADMIN_TOKEN = 'ci-secret-admin-token-7d1e';

/** The fenced block after the `<!-- ci-recipe:shell -->` marker, as the doc has it. */
function recipe(): string {
  const doc = readFileSync(DOC, 'utf8');
  const block = /<!-- ci-recipe:shell -->\n```sh\n([\s\S]*?)\n```\n/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/sandbox.md has no ```sh block after <!-- ci-recipe:shell -->');
  return block;
}

/** A folder for the job, with `parcels` (the built CLI) and `npm` (the suite: `test`) on PATH. */
function job(suite: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'parcels-ci-'));
  const bin = join(dir, '.bin');
  const script = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  mkdirSync(bin);
  script('parcels', `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"`);
  script('npm', `[ "$1" = test ] || exit 64\nset -eu\n${suite}`);
  const env = binaryEnv({ PATH: `${bin}:${process.env.PATH ?? ''}`, PARCELS_SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN });
  return { dir, env };
}

function runRecipe(dir: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', recipe()], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const SUITE = [
  'parcels couriers --json > couriers.json',
  `curl -sS -H "X-Api-Key: $PARCELS_API_KEY" -H "Authorization: Bearer $PARCELS_API_KEY" "$PARCELS_BASE_URL/account/v1/couriers?token=$PARCELS_SANDBOX_ADMIN_TOKEN" -o /dev/null -w '%{http_code}\\n' > probe.txt`,
  'parcels sandbox clock --json > clock.json',
  'echo "$PARCELS_BASE_URL" > tested-url',
].join('\n');

describe('the CI recipe of docs/sandbox.md, run as written', () => {
  it('starts the sandbox on a free port, waits for its URL file, checks health, runs the suite, stops it with SIGTERM: exit 0 and the whole log, redacted', async () => {
    const { dir, env } = job(SUITE);
    const r = await runRecipe(dir, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const url = readFileSync(join(dir, 'sandbox.url'), 'utf8');
    // The sandbox's one stdout line, in the job's output.
    expect(r.stdout).toBe(url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(readFileSync(join(dir, 'tested-url'), 'utf8')).toBe(url);
    expect((JSON.parse(readFileSync(join(dir, 'couriers.json'), 'utf8')) as { couriers: Array<{ code: string }> }).couriers.map((c) => c.code)).toEqual(['DEMO-BIKE', 'DEMO-VAN']);
    expect(readFileSync(join(dir, 'probe.txt'), 'utf8')).toBe('400\n');
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'clock.json'), 'utf8')) as object).sort()).toEqual(['frozen', 'now', 'now_ms', 'speed']);
    const err = readFileSync(join(dir, 'sandbox.err'), 'utf8');
    expect(err.endsWith(`Stopping the sandbox on ${url.trim()}…\n✓ Stopped; the data was in memory (--db :memory:) and is gone\n`)).toBe(true);
    const log = readFileSync(join(dir, 'sandbox-requests.ndjson'), 'utf8');
    expect(log).not.toContain(DEMO_KEY);
    expect(log).not.toContain(ADMIN_TOKEN);
    const entries = log.trimEnd().split('\n').map((line) => JSON.parse(line) as { seq: number; route: string; status: number; query: string | null; headers: Record<string, string> });
    expect(entries.map((e) => [e.seq, e.route, e.status, e.query])).toEqual([
      [1, 'couriers.list', 200, null],
      [2, 'couriers.list', 400, 'token=[redacted]'],
    ]);
    expect(entries[1]?.headers['x-api-key']).toBe('[redacted]');
  });

  it('a failing suite fails the job with its own exit status, and the sandbox is still stopped cleanly', async () => {
    const { dir, env } = job('parcels couriers --json > couriers.json\nexit 3');
    const r = await runRecipe(dir, env);
    expect(r.code).toBe(3);
    expect(readFileSync(join(dir, 'sandbox.err'), 'utf8')).toMatch(/✓ Stopped; the data was in memory \(--db :memory:\) and is gone\n$/);
    expect(readFileSync(join(dir, 'sandbox-requests.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(1);
  });
});
