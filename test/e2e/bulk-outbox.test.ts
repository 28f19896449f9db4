/**
 * End-to-end offline outbox: the built binary queues while `parcels sandbox serve` is down and
 * `outbox flush` delivers everything exactly once when it is back (same port, same database file).
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, serveSandbox } from '../helpers/spawn.js';
import { spawnedSession } from '../helpers/spawned-session.js';
import { tempConfigDir } from '../helpers/cli.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const session = spawnedSession();
const parcels = (args: string[], env: NodeJS.ProcessEnv) => session.parcels(args, { env });

/** `sandbox serve` on a file database; `port` 0 picks one, a later start reuses it (the outbox belongs to that base URL). */
async function serve(db: string, port: number): Promise<ServedSandbox> {
  session.running = await serveSandbox(TEST_SEED, ['--db', db, '--port', String(port)]);
  return session.running;
}

async function stop(): Promise<void> {
  expect(await session.running?.stop()).toBe(0);
  session.running = undefined;
}

const CREATE = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '7'];

describe('offline outbox', () => {
  it('queues while the service is down (exit 75), never queues an invalid request, and flush delivers everything exactly once', async () => {
    const db = join(tempConfigDir(), 'sandbox.db');
    const first = await serve(db, 0);
    const port = Number(new URL(first.url).port);
    const env = binaryEnv({ PARCELS_BASE_URL: first.url, PARCELS_API_KEY: FULL_KEY, PARCELS_RETRIES: '0' });
    const created = await parcels([...CREATE, '--quiet'], env);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    await stop();

    const event = await parcels(['events', 'add', id, '--status', 'in_transit', '--queue'], env);
    expect(event).toMatchObject({ code: 75, stdout: '' });
    expect(event.stderr).toBe('! queued (1 waiting); `parcels outbox flush` sends it\n');
    const attempt = await parcels(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--queue'], env);
    expect(attempt).toMatchObject({ code: 75, stderr: '! queued (2 waiting); `parcels outbox flush` sends it\n' });
    const parcel = await parcels([...CREATE, '--queue', '--quiet'], env);
    expect(parcel).toMatchObject({ code: 75, stdout: '', stderr: '! queued (3 waiting); `parcels outbox flush` sends it\n' });

    const invalid = await parcels(['events', 'add', id, '--status', '9', '--queue'], env);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('--status');

    const listed = await parcels(['outbox', '-o', 'json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((e) => [e.seq, e.command, e.parcel, e.state])).toEqual([
      [1, 'events add', id, 'waiting'],
      [2, 'attempts add', id, 'waiting'],
      [3, 'create', null, 'waiting'],
    ]);

    // Still down: the first entry fails after its retries and the others are not tried.
    const tooEarly = await parcels(['outbox', 'flush', '--retries', '1'], env);
    expect(tooEarly.code).toBe(8);
    expect(tooEarly.stdout).toBe('{"line":1,"ok":false,"outcome":"failed","error":{"code":"connection_refused","message":' + JSON.stringify(JSON.parse(tooEarly.stdout).error.message) + '}}\n');
    expect(tooEarly.stderr).toMatch(
      /^! Outbox: 3 entries: 0 created, 1 failed, 2 not sent \(the service is still out of reach\); 3 still waiting in \d+\.\d s\nHint: run `parcels outbox flush` again once the service answers\n$/,
    );

    await serve(db, port);
    const flushed = await parcels(['outbox', 'flush'], env);
    expect(flushed.code, flushed.stderr).toBe(0);
    const results = flushed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(results[0]?.entry_id).toBe(id);
    expect(results[2]?.entry_id).toMatch(UUID);
    expect(flushed.stderr).toMatch(/^✓ Outbox: 3 entries: 3 created \(1 status event, 1 delivery attempt, 1 parcel\), 0 failed; 0 still waiting in \d+\.\d s\n$/);

    // Exactly once: a second flush has nothing to send, the service holds one of each.
    expect(await parcels(['outbox', 'flush'], env)).toMatchObject({ code: 0, stdout: '' });
    expect(await parcels(['outbox'], env)).toMatchObject({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });
    const events = JSON.parse((await parcels(['events', 'list', id, '--json'], env)).stdout) as { events: Array<{ status: number }> };
    expect(events.events.filter((e) => e.status === 2)).toHaveLength(1);
    const attempts = JSON.parse((await parcels(['attempts', 'list', id, '--json'], env)).stdout) as { attempts: unknown[] };
    expect(attempts.attempts).toHaveLength(1);
    const all = await parcels(['list', '-o', 'ndjson'], env);
    expect(all.stdout.trim().split('\n')).toHaveLength(2);
  }, 60_000);

  it('--offline queues without trying even when the service is up; another base URL has its own outbox', async () => {
    const db = join(tempConfigDir(), 'sandbox.db');
    const sandbox = await serve(db, 0);
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    const queued = await parcels([...CREATE, '--offline', '--quiet'], env);
    expect(queued).toMatchObject({ code: 75, stdout: '', stderr: '! queued (1 waiting); `parcels outbox flush` sends it\n' });
    expect(await parcels(['list', '-o', 'ndjson'], env)).toMatchObject({ code: 0, stdout: '' });

    const elsewhere = { ...env, PARCELS_BASE_URL: 'http://127.0.0.1:9/' };
    expect(await parcels(['outbox'], elsewhere)).toMatchObject({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });

    const flushed = await parcels(['outbox', 'flush'], env);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect((await parcels(['list', '-o', 'ndjson'], env)).stdout.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('two commands capturing at the same instant while the outbox is held both wait for the lock, both end queued, and flush delivers both once', async () => {
    const db = join(tempConfigDir(), 'sandbox.db');
    const sandbox = await serve(db, 0);
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    const first = await parcels([...CREATE, '--offline', '--quiet'], env);
    expect(first.code, first.stderr).toBe(75);
    // Hold the outbox's lock as a live process (this one) would, so both captures find it taken.
    const journals = join(env.PARCELS_CONFIG_DIR as string, 'journals');
    const [targetDir] = readdirSync(journals);
    const lock = join(journals, targetDir as string, 'outbox.ndjson.lock');
    writeFileSync(lock, `${process.pid}\n`);
    // Each command reads a held lock's pid before it waits: a preload (test-only) writes down which
    // process read it, so the lock is released once both are seen waiting, not after a delay.
    const readers = join(tempConfigDir(), 'lock-readers.txt');
    const preload = join(tempConfigDir(), 'note-lock-reads.cjs');
    writeFileSync(
      preload,
      // The holder's pid is read through the one opener (numeric flags); taking the lock opens it with 'wx'.
      `const fs = require('node:fs');\nconst open = fs.openSync;\nfs.openSync = function (path, flags, ...rest) {\n  if (String(path).endsWith('.lock') && typeof flags === 'number') fs.appendFileSync(${JSON.stringify(readers)}, process.pid + '\\n');\n  return open.call(this, path, flags, ...rest);\n};\n`,
    );
    writeFileSync(readers, '');
    const watched = { ...env, NODE_OPTIONS: `--require ${preload}` };
    const both = Promise.all([
      parcels([...CREATE.slice(0, -1), '8', '--offline', '--quiet'], watched),
      parcels([...CREATE.slice(0, -1), '9', '--offline', '--quiet'], watched),
    ]);
    await expect.poll(() => new Set(readFileSync(readers, 'utf8').split('\n').filter(Boolean)).size, { timeout: 30_000, interval: 10 }).toBe(2);
    rmSync(lock);
    const [a, b] = await both;
    expect(a.code, a.stderr).toBe(75);
    expect(b.code, b.stderr).toBe(75);
    expect([a.stderr, b.stderr].sort()).toEqual(['! queued (2 waiting); `parcels outbox flush` sends it\n', '! queued (3 waiting); `parcels outbox flush` sends it\n']);

    const listed = await parcels(['outbox', '-o', 'json'], env);
    expect((JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((e) => [e.seq, e.state])).toEqual([
      [1, 'waiting'],
      [2, 'waiting'],
      [3, 'waiting'],
    ]);
    const flushed = await parcels(['outbox', 'flush'], env);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(flushed.stderr).toMatch(/^✓ Outbox: 3 entries: 3 created \(3 parcels\), 0 failed; 0 still waiting in \d+\.\d s\n$/);
    expect(await parcels(['outbox', 'flush'], env)).toMatchObject({ code: 0, stdout: '' });
    const numbers = (await parcels(['list', '-o', 'ndjson'], env)).stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { number: string }).number)
      .sort();
    expect(numbers).toEqual(['7', '8', '9']);
  }, 60_000);
});
