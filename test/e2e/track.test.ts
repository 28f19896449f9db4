/**
 * `parcels track`, end to end: the built binary, spawned, against `parcels sandbox serve` (also
 * spawned) over real HTTP. Run `npm run build` first (`npm test` does).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox, Spawned } from '../helpers/spawn.js';
import { binaryEnv, parcels as spawnParcels, serveSandbox } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const seen: Spawned[] = [];
let sandbox: ServedSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await serveSandbox(TEST_SEED);
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
});

afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n') + sandbox.stderr();
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

async function parcels(args: string[], input?: string): Promise<Spawned> {
  const result = await spawnParcels(args, { env, input });
  seen.push(result);
  return result;
}

async function ok(args: string[]): Promise<string> {
  const r = await parcels(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

async function newParcel(): Promise<string> {
  return (await ok(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--quiet'])).trim();
}

interface Running {
  stdout(): string;
  stderr(): string;
  exited: Promise<Spawned>;
  kill(signal: NodeJS.Signals): void;
}

/** A long-running `parcels …` whose output can be read while it runs. */
function start(args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<Spawned>((resolve) =>
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout, stderr };
      seen.push(result);
      resolve(result);
    }),
  );
  return { stdout: () => stdout, stderr: () => stderr, exited, kill: (signal) => child.kill(signal) };
}

/** 2020-01-01T10:00:00Z */
const T = 1_577_872_800;
/** Piped, a timeline's times are absolute: no age column (a script reads `time`). */
const HEADER = 'time\tentry\tstate\treason\tdelivered\n';

describe('track ID', () => {
  it('one timeline of events and attempts in time order, as a person reads it and as JSON', async () => {
    const id = await newParcel();
    await ok(['events', 'add', id, '--status', 'in_transit', '--at', String(T + 3600)]);
    await ok(['events', 'add', id, '--status', 'picked_up', '--at', '2020-01-01T10:00:00Z']);
    await ok(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--at', String(T + 1800)]);
    await ok(['events', 'add', id, '--status', 'in_delivery', '--at', String(T + 86_000)]);
    await ok(['attempts', 'add', id, '--outcome', 'delivered', '--at', String(T + 86_400)]);

    const human = await parcels(['track', id]);
    expect(human.code).toBe(0);
    expect(human.stderr).toBe('');
    expect(human.stdout.slice(human.stdout.indexOf('\nTimeline\n'))).toBe(
      '\nTimeline\n' +
        HEADER +
        '2020-01-01T10:00:00Z\tevent\t1 picked_up\t\t\n' +
        '2020-01-01T10:30:00Z\tattempt 1\t1 failed\t1 not_at_home\t\n' +
        '2020-01-01T11:00:00Z\tevent\t2 in_transit\t\t\n' +
        '2020-01-02T09:53:20Z\tevent\t3 in_delivery\t\t\n' +
        '2020-01-02T10:00:00Z\tattempt 2\t0 delivered\t\t\n',
    );
    expect(human.stdout.startsWith(`entry_id\t${id}\n`)).toBe(true);
    expect(human.stdout).toContain('\nstatus\t4 delivered\n');

    const data = JSON.parse(await ok(['track', id, '--json'])) as { parcel: { entry_id: string; status: number }; timeline: Record<string, unknown>[] };
    expect(data.parcel).toMatchObject({ entry_id: id, status: 4 });
    expect(data.timeline.map((e) => [e.kind, e.at, e.status ?? e.outcome])).toEqual([
      ['event', T, 1],
      ['attempt', T + 1800, 1],
      ['event', T + 3600, 2],
      ['event', T + 86_000, 3],
      ['attempt', T + 86_400, 0],
    ]);
    expect(data.timeline[1]).toMatchObject({ kind: 'attempt', at: T + 1800, attempt_no: 1, outcome: 1, reason: 1, time_attempt: T + 1800 });
  });
});

describe('track --watch', () => {
  it('ends with 0 when an attempt delivers the parcel while it watches', async () => {
    const id = await newParcel();
    const watching = start(['track', id, '--watch', '--interval', '1']);
    await expect.poll(watching.stdout, { timeout: 10_000 }).toContain(`\nTimeline\n${HEADER}`);
    await ok(['attempts', 'add', id, '--outcome', 'delivered_elsewhere', '--delivered-country', 'NL', '--delivered-postal-code', '1011AB', '--delivered-number', '5', '--at', String(T)]);
    const r = await watching.exited;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('No events or attempts yet.\ndelivered; stopped watching\n');
    expect(r.stdout.slice(r.stdout.indexOf('\nTimeline\n'))).toBe(`\nTimeline\n${HEADER}2020-01-01T10:00:00Z\tattempt 1\t2 delivered_elsewhere\t\t5, 1011AB, NL\n`);
  });

  it('--fail-on-attempt: outcome 1 (status 5) ends it with exit 11', async () => {
    const id = await newParcel();
    const watching = start(['track', id, '--watch', '--interval', '1', '--fail-on-attempt', '--json']);
    // The first read is done once the sandbox has counted it; nothing is printed for an empty history.
    await expect.poll(async () => (await parcels(['usage', 'requests', '--output', 'ndjson'])).stdout.includes(`/parcels/${id}/attempts`), { timeout: 10_000 }).toBe(true);
    await ok(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'weather', '--at', String(T)]);
    const r = await watching.exited;
    expect(r.code).toBe(11);
    expect(r.stderr).toBe(`{"error":{"status":null,"code":"not_delivered","message":"parcel ${id} was not delivered: attempt 1: 1 failed (8 weather)","exit_code":11}}\n`);
    expect(JSON.parse(r.stdout)).toMatchObject({ entry_id: id, kind: 'attempt', at: T, attempt_no: 1, outcome: 1, reason: 8 });
    expect(JSON.parse(await ok(['get', id, '--json']))).toMatchObject({ status: 5 });
  });

  it('Ctrl-C (SIGINT) → exit 130, the output whole', async () => {
    const id = await newParcel();
    const watching = start(['track', id, '--watch', '--interval', '1']);
    await expect.poll(watching.stdout, { timeout: 10_000 }).toContain(`\nTimeline\n${HEADER}`);
    watching.kill('SIGINT');
    const r = await watching.exited;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('No events or attempts yet.\n');
    expect(r.stdout.endsWith(`\nTimeline\n${HEADER}`)).toBe(true);
  });
});

describe('several parcels at once', () => {
  it('some ids unknown: the found parcels on stdout, one error per unknown id on stderr in argument order, exit 4', async () => {
    const a = await newParcel();
    const first = '00000000-0000-4000-8000-000000000001';
    const second = '00000000-0000-4000-8000-000000000002';
    const hint = "Hint: check the id (the parcel's entry_id UUID) and that it belongs to your organisation\n";
    expect(await parcels(['track', first, a, second])).toEqual({
      code: 4,
      stdout: `entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n${a}\t0 registered\t\t\t\tno\n`,
      stderr: `Error: parcel ${first}: no parcel with entry_id ${first}\n${hint}Error: parcel ${second}: no parcel with entry_id ${second}\n${hint}`,
    });
  });

  it('ids as arguments and from stdin: one state row each; --watch ends when all are delivered', async () => {
    const a = await newParcel();
    const b = await newParcel();
    await ok(['attempts', 'add', a, '--outcome', 'delivered', '--at', String(T)]);
    const table = await parcels(['track', a, b]);
    expect(table).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n${a}\t4 delivered\t2020-01-01T10:00:00Z\tattempt 1: 0 delivered\t\tyes\n${b}\t0 registered\t\t\t\tno\n`,
    });
    const piped = await parcels(['track', '--from', '-', '--json'], `${JSON.stringify({ entry_id: a })}\n${b}\n`);
    expect(piped.code).toBe(0);
    expect(piped.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { entry_id: string; delivered: boolean })).toMatchObject([
      { entry_id: a, delivered: true },
      { entry_id: b, delivered: false },
    ]);

    const watching = start(['track', a, b, '--watch', '--interval', '1', '--json']);
    await expect.poll(watching.stdout, { timeout: 10_000 }).toContain(`"entry_id":"${a}"`);
    await ok(['attempts', 'add', b, '--outcome', 'delivered', '--at', String(T + 60)]);
    const r = await watching.exited;
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([
      { entry_id: a, kind: 'attempt', at: T, outcome: 0 },
      { entry_id: b, kind: 'attempt', at: T + 60, outcome: 0 },
    ]);
  });
});
