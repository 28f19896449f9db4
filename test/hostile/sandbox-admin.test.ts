/**
 * Attacks on the sandbox's admin side: a customer key as the admin token, a token file left by a
 * killed sandbox, keys sent outside the Authorization header, the admin curl of a dry run, host
 * forms, and the listener's timeouts.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { adminTokenFile, writeAdminToken } from '../../src/config/admin-token.js';
import { adminProof } from '../../src/schemas/admin-proof.js';
import { isLoopbackHost, isLoopbackUrl } from '../../src/schemas/host.js';
import { createApp } from '../../src/sandbox/app.js';
import { AdminTokenError, DEMO_API_KEY, DEFAULT_LIMITS, startSandbox } from '../../src/sandbox/index.js';
import { listen } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import { captureIO } from '../helpers/io.js';
import { KEY_A, KEY_B, TEST_SEED, call } from '../sandbox/helpers.js';

const ADMIN = 'my-own-admin-token-0001';

/** `parcels sandbox serve …` in-process until it is ready (`Press Ctrl-C`); stop() sends it SIGTERM. */
async function serve(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; stderr(): string; stop(): Promise<number> }> {
  const captured = captureIO({ env });
  const cancel = new AbortController();
  const code = run(['sandbox', 'serve', '--port', '0', '--db', ':memory:', ...args], { io: captured.io, env, signal: cancel.signal });
  const ended = await Promise.race([code, captured.until('stderr', 'Press Ctrl-C').then(() => undefined)]);
  if (ended !== undefined) throw new Error(`serve ended with ${ended}: ${captured.stderr()}`);
  return { url: captured.stdout().trim(), stderr: captured.stderr, stop: () => (cancel.abort('SIGTERM'), code) };
}

/** The pid of a process that has run and ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('close', r));
  return child.pid as number;
}

describe('an admin token can never be a customer key', () => {
  it('the library refuses it at start, and so does sandbox serve (exit 2, the key not echoed), even on 0.0.0.0', async () => {
    await expect(startSandbox({ seed: TEST_SEED, adminToken: KEY_A })).rejects.toThrow(AdminTokenError);
    await expect(startSandbox({ adminToken: DEMO_API_KEY, host: '0.0.0.0' })).rejects.toThrow(
      'the admin token is a customer API key of this sandbox; an admin token must be a secret of its own',
    );
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const dir = tempConfigDir();
      const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--host', host], { env: { PARCELS_CONFIG_DIR: dir, PARCELS_SANDBOX_ADMIN_TOKEN: DEMO_API_KEY } });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('Error: PARCELS_SANDBOX_ADMIN_TOKEN: the admin token is a customer API key of this sandbox; an admin token must be a secret of its own\n');
    }
    // A key an earlier seed put in the database counts too (the database keeps only its hash).
    const db = join(tempConfigDir(), 'sandbox.db');
    await (await startSandbox({ seed: TEST_SEED, db })).close();
    await expect(startSandbox({ db, adminToken: KEY_B })).rejects.toThrow(AdminTokenError);
  });
});

describe('the token file is tied to the sandbox that wrote it', () => {
  it('a file left by a killed sandbox (or one without its pid) is ignored: nothing is sent to whatever listens there', async () => {
    let proving: { token: string; port: number } | undefined;
    const hostile = await startHostileServer(({ url }) => {
      const nonce = new URL(url, 'http://x').searchParams.get('nonce');
      if (proving !== undefined && nonce !== null) return { status: 200, body: { data: { proof: adminProof(proving.token, nonce, '127.0.0.1', proving.port) } } };
      return { status: 200, body: { data: { now_ms: 0, now: '1970-01-01T00:00:00.000Z', frozen: false, speed: 1 } } };
    });
    try {
      const dir = tempConfigDir();
      const env = { PARCELS_CONFIG_DIR: dir };
      const file = adminTokenFile(env, Number(new URL(hostile.url).port));
      mkdirSync(join(file, '..'), { recursive: true });
      for (const text of [`sbxadm_left-behind-token\npid ${await deadPid()}\n`, 'sbxadm_left-behind-token\n']) {
        writeFileSync(file, text, { mode: 0o600 });
        const r = await runCli(['sandbox', 'clock', '--base-url', hostile.url], { env });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
          `Error: no admin token for the sandbox at ${hostile.url} (the token file ${file} was left by a sandbox that no longer runs): ` +
            'set PARCELS_SANDBOX_ADMIN_TOKEN, or run the sandbox on this machine with `parcels sandbox serve`\n',
        );
      }
      expect(hostile.seen).toEqual([]);

      // The live writer's file: the token alone on the first line, the pid on the second; it is
      // used once the listener proves it holds it (this one knows the token, as the sandbox would).
      await writeAdminToken(env, Number(new URL(hostile.url).port), 'sbxadm_live-token-0001');
      expect(readFileSync(file, 'utf8')).toBe(`sbxadm_live-token-0001\npid ${process.pid}\n`);
      proving = { token: 'sbxadm_live-token-0001', port: Number(new URL(hostile.url).port) };
      const r = await runCli(['sandbox', 'clock', '--json', '--base-url', hostile.url], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(hostile.seen.map((s) => s.headers.authorization)).toEqual([undefined, 'Bearer sbxadm_live-token-0001']);
    } finally {
      await hostile.close();
    }
  });
});

describe('the request log keeps no key, wherever it was sent', () => {
  it('keys in a path, a query and a body, the admin token, and a key only the database knows are redacted', async () => {
    const db = join(tempConfigDir(), 'sandbox.db');
    const old = 'old_seed_key_only_hashed_0001';
    const oldSeed = { organisations: [{ id: 'old', name: 'Old', couriers: [], keys: [{ key: old, scopes: ['deliveries:read' as const] }] }] };
    await (await startSandbox({ seed: oldSeed, db })).close();
    const s = await startSandbox({ seed: TEST_SEED, db, adminToken: ADMIN });
    try {
      await call(s.url, 'GET', `/deliveries/v1/parcels/${KEY_B}`);
      await call(s.url, 'GET', `/deliveries/v1/parcels?cursor=${KEY_B}&courier=${encodeURIComponent(ADMIN)}`);
      await call(s.url, 'GET', `/deliveries/v1/parcels/${old}`);
      await call(s.url, 'POST', '/deliveries/v1/parcels', { body: { courier: KEY_B, country: 'NL', postal_code: '1234AB', number: ADMIN, addition: `x/${old}` }, idem: 'redact-test-0001' });
      const logs = await call(s.url, 'GET', '/_sandbox/v1/logs?bodies=true', { key: ADMIN });
      expect(logs.status).toBe(200);
      const text = JSON.stringify(logs.body);
      for (const secret of [KEY_A, KEY_B, ADMIN, encodeURIComponent(ADMIN), old]) expect(text).not.toContain(secret);
      const entries = logs.body.data.entries as { path: string; request_body?: unknown }[];
      expect(entries.map((e) => e.path)).toEqual([
        '/deliveries/v1/parcels/[redacted]',
        '/deliveries/v1/parcels',
        '/deliveries/v1/parcels/[redacted]',
        '/deliveries/v1/parcels',
      ]);
      expect(entries[3]?.request_body).toEqual({ courier: '[redacted]', country: 'NL', postal_code: '1234AB', number: '[redacted]', addition: 'x/[redacted]' });
    } finally {
      await s.close();
    }
  });
});

describe('sandbox clock --dry-run sends the admin token, never the customer key, and prints neither', () => {
  it('from PARCELS_SANDBOX_ADMIN_TOKEN, or read from the token file inside the curl line, which works when pasted', async () => {
    const dir = tempConfigDir();
    const s = await startSandbox({ seed: TEST_SEED, adminToken: ADMIN, frozen: true });
    try {
      const port = Number(new URL(s.url).port);
      const fromEnv = await runCli(['sandbox', 'clock', 'freeze', '--dry-run', '--base-url', s.url], {
        env: { PARCELS_CONFIG_DIR: dir, PARCELS_SANDBOX_ADMIN_TOKEN: ADMIN, PARCELS_API_KEY: KEY_A },
      });
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
      expect(fromEnv.stdout).toContain(
        `# the admin token is read from $PARCELS_SANDBOX_ADMIN_TOKEN\nprintf 'Authorization: Bearer %s\\n' "$PARCELS_SANDBOX_ADMIN_TOKEN" | curl -sS -X POST ${s.url}/_sandbox/v1/clock/freeze -H 'Accept: application/json' -H @-`,
      );
      await writeAdminToken({ PARCELS_CONFIG_DIR: dir }, port, ADMIN);
      const file = adminTokenFile({ PARCELS_CONFIG_DIR: dir }, port);
      const fromFile = await runCli(['sandbox', 'clock', 'freeze', '--dry-run', '--base-url', s.url], { env: { PARCELS_CONFIG_DIR: dir, PARCELS_API_KEY: KEY_A } });
      expect(fromFile.code, fromFile.stderr).toBe(0);
      const curl = fromFile.stdout.split('\n').find((l) => l.startsWith('printf')) as string;
      expect(curl).toBe(`printf 'Authorization: Bearer %s\\n' "$(head -n1 ${file})" | curl -sS -X POST ${s.url}/_sandbox/v1/clock/freeze -H 'Accept: application/json' -H @- -H 'Content-Type: application/json' --data-binary '{}'`);
      for (const out of [fromEnv, fromFile]) {
        expect(out.stdout + out.stderr).not.toContain(ADMIN);
        expect(out.stdout + out.stderr).not.toContain(KEY_A);
        expect(out.stdout).not.toContain('PARCELS_API_KEY');
      }
      // Pasted into a shell without the variable, the line reaches the admin route with the token.
      const { stdout } = await promisify(execFile)('bash', ['-c', curl], { env: { PATH: process.env.PATH } });
      expect(JSON.parse(stdout)).toMatchObject({ data: { frozen: true } });
    } finally {
      await s.close();
    }
  });
});

describe('host forms', () => {
  it('loopback in every spelling, IPv4-mapped included; nothing else', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '[0:0:0:0:0:0:0:1]', '::ffff:127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'].map(isLoopbackHost)).toEqual(Array(9).fill(true));
    expect(['10.0.0.1', '0.0.0.0', '::', '::ffff:10.0.0.1', 'example.com', '[::2]', 'fe80::1%lo'].map(isLoopbackHost)).toEqual(Array(7).fill(false));
    expect(isLoopbackUrl('http://[::ffff:127.0.0.1]:8787')).toBe(true);
  });

  it("sandbox serve --host '[::1]' serves; on ::ffff:127.0.0.1 the CLI finds its token file as for any loopback", async () => {
    const dir = tempConfigDir();
    const v6 = await serve(['--host', '[::1]'], { PARCELS_CONFIG_DIR: dir });
    expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await call(v6.url, 'GET', '/account/v1/couriers', { key: DEMO_API_KEY })).status).toBe(200);
    expect(await v6.stop()).toBe(0);

    const mapped = await serve(['--host', '::ffff:127.0.0.1'], { PARCELS_CONFIG_DIR: dir });
    try {
      expect(mapped.url).toMatch(/^http:\/\/\[::ffff:127\.0\.0\.1\]:\d+$/);
      expect(mapped.stderr()).toContain(`Admin token (for parcels sandbox clock, simulate, logs, faults) in ${adminTokenFile({ PARCELS_CONFIG_DIR: dir }, Number(new URL(mapped.url).port))}`);
      const clock = await runCli(['sandbox', 'clock', '--json', '--base-url', mapped.url], { env: { PARCELS_CONFIG_DIR: dir } });
      expect(clock.code, clock.stderr).toBe(0);
      expect(JSON.parse(clock.stdout)).toMatchObject({ speed: 1 });
    } finally {
      expect(await mapped.stop()).toBe(0);
    }
  });
});

describe('idle and half-sent sockets', () => {
  it('the listener carries the documented timeouts by default (the real waits, with short ones, are in test/sandbox/edges.test.ts)', async () => {
    const app = createApp({ seed: TEST_SEED });
    const listening = await listen(app);
    try {
      const { server } = listening;
      expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.timeout, server.maxConnections]).toEqual([20_000, 30_000, 5_000, 60_000, 1024]);
      expect(DEFAULT_LIMITS).toEqual({ headersTimeoutMs: 20_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, idleTimeoutMs: 60_000, maxConnections: 1024 });
    } finally {
      await listening.close();
      app.close();
    }
  });
});
