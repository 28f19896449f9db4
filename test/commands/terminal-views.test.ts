/**
 * Issue 20 at a terminal, in-process against a real sandbox: the sandbox's own views (logs,
 * simulate, clock) at 60, 100 and 200 columns in Amsterdam's time zone, colour on and off.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import type { CliResult } from '../helpers/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import { KEY_A, TEST_SEED, createParcel } from '../sandbox/helpers.js';

/** 2026-11-02T12:00:00Z, 13:00 in Amsterdam: a terminal shows `today 13:00` (compact), `-o wide` the whole time. */
const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const NOW = START / 1000;
const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
afterAll(() => s.close());

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PARCELS_CONFIG_DIR: tempConfigDir(),
  PARCELS_BASE_URL: s.url,
  PARCELS_SANDBOX_ADMIN_TOKEN: s.adminToken,
  TZ: 'Europe/Amsterdam',
  ...extra,
});

/** `parcels …` with stdout on a terminal `columns` wide (stderr piped, so it holds no spinner). */
async function onTerminal(argv: string[], columns: number, colour = false): Promise<CliResult> {
  const e = env();
  const captured = captureIO({ env: e, tty: true, colour, columns });
  captured.io.stderrIsTTY = false;
  captured.io.stderrColour = false;
  const code = await run(argv, { io: captured.io, env: e, now: () => NOW });
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const NOTE = (columns: number, names: string): string => `Not shown at ${columns} columns: ${names} (widen the terminal, or use -o wide or --json)\n`;

const id = (await createParcel(s.url)).body.data.entry_id as string;
await runCli(['events', 'add', id, '--status', 'in_transit'], { env: env({ PARCELS_API_KEY: KEY_A }) });
/** The route as a terminal shows it: without the delivery routes' prefix `/deliveries/v1`. */
const EVENTS = `/parcels/${id}/events`;

describe('sandbox logs at a terminal', () => {
  it('200 columns: every column, times compact in the local zone, one header style', async () => {
    const row = (seq: string, path: string, status: string, code: string): string =>
      `${seq}    today 13:00  POST    ${path.padEnd(EVENTS.length)}  ${status}   ${code.padEnd(17)}  no      0\n`;
    expect(await onTerminal(['sandbox', 'logs'], 200)).toEqual({
      code: 0,
      stdout:
        `SEQ  TIME         METHOD  ${'ROUTE'.padEnd(EVENTS.length)}  HTTP  CODE               REPLAY  MS\n` +
        row('1', '/parcels', '201', '-') +
        row('2', EVENTS, '422', 'validation_failed'),
      stderr: '',
    });
  });

  it('100 and 60 columns: routes stay whole (events and attempts never look alike) and keep their status; whole low-priority columns go, named once', async () => {
    expect(await onTerminal(['sandbox', 'logs'], 100)).toEqual({
      code: 0,
      stdout:
        `SEQ  TIME         METHOD  ${'ROUTE'.padEnd(EVENTS.length)}  HTTP\n` +
        `1    today 13:00  POST    ${'/parcels'.padEnd(EVENTS.length)}  201\n` +
        `2    today 13:00  POST    ${EVENTS}  422\n`,
      stderr: NOTE(100, 'CODE, REPLAY, MS'),
    });
    expect(await onTerminal(['sandbox', 'logs'], 60)).toEqual({
      code: 0,
      stdout: `${'ROUTE'.padEnd(EVENTS.length)}  HTTP\n${'/parcels'.padEnd(EVENTS.length)}  201\n${EVENTS}  422\n`,
      stderr: NOTE(60, 'SEQ, TIME, METHOD, CODE, REPLAY, MS'),
    });
  });

  it('-o wide and --json keep the whole path', async () => {
    const wide = await onTerminal(['sandbox', 'logs', '-o', 'wide'], 200);
    expect(wide.stdout).toContain(`/deliveries/v1${EVENTS}`);
    const json = await runCli(['sandbox', 'logs', '--json'], { env: env() });
    expect((JSON.parse(json.stdout) as Array<{ path: string }>).map((e) => e.path)).toEqual(['/deliveries/v1/parcels', `/deliveries/v1${EVENTS}`]);
  });

  it('--limit N: only the latest N; piped and --json too; 0 is refused with the rule', async () => {
    const latest = await onTerminal(['sandbox', 'logs', '--limit', '1'], 100);
    expect(latest.stdout).toBe(`SEQ  TIME         METHOD  ${'ROUTE'.padEnd(EVENTS.length)}  HTTP\n2    today 13:00  POST    ${EVENTS}  422\n`);
    const piped = await runCli(['sandbox', 'logs', '--limit', '1'], { env: env() });
    expect(piped.stdout.split('\n').slice(1, -1).map((l) => l.split('\t')[0])).toEqual(['2']);
    const json = await runCli(['sandbox', 'logs', '--limit', '2', '--json'], { env: env() });
    expect((JSON.parse(json.stdout) as Array<{ seq: number }>).map((e) => e.seq)).toEqual([1, 2]);
    const zero = await runCli(['sandbox', 'logs', '--limit', '0'], { env: env() });
    expect(zero.code).toBe(2);
    expect(zero.stdout).toBe('');
    expect(zero.stderr).toMatch(/^Error: --limit must be .*\(got "?0"?\)/);
  });

  it('colour on: the same text, headers bold, no style leaking', async () => {
    const plain = await onTerminal(['sandbox', 'logs'], 200);
    const coloured = await onTerminal(['sandbox', 'logs'], 200, true);
    expect(coloured.stdout).toContain('\u001b[1mSEQ\u001b[22m');
    expect(stripVTControlCharacters(coloured.stdout)).toBe(plain.stdout);
  });
});

describe('sandbox simulate at a terminal', () => {
  const HEAD = `Parcel ${id}: scenario happy (run 1), 0 of 4 steps applied\n`;

  it('200 and 100 columns: every step with its times compact in the local zone and how soon it arrives', async () => {
    expect((await runCli(['sandbox', 'simulate', id, 'happy'], { env: env() })).code).toBe(0);
    for (const columns of [200, 100]) {
      expect(await onTerminal(['sandbox', 'simulate', id], columns)).toEqual({
        code: 0,
        stdout:
          'STEP  ARRIVES      IN      OCCURRED     EVENT        OUTCOME    REASON     COPIES  APPLIED\n' +
          '0     today 13:15  in 15m  today 13:15  picked_up    -          -          1       no\n' +
          '1     today 14:15  in 1h   today 14:15  in_transit   -          -          1       no\n' +
          '2     today 17:15  in 4h   today 17:15  in_delivery  -          -          1       no\n' +
          '3     today 18:15  in 5h   today 18:15  -            delivered  no_reason  1       no\n',
        stderr: HEAD,
      });
    }
    const wide = await onTerminal(['sandbox', 'simulate', id, '-o', 'wide'], 200);
    expect(wide.stdout).toContain('2026-11-02T13:15:00+01:00');
  });

  it('70 and 60 columns: APPLIED stays (the point of the view); ages and times go first, whole', async () => {
    expect(await onTerminal(['sandbox', 'simulate', id], 70)).toEqual({
      code: 0,
      stdout:
        'STEP  ARRIVES      EVENT        OUTCOME    REASON     APPLIED\n' +
        '0     today 13:15  picked_up    -          -          no\n' +
        '1     today 14:15  in_transit   -          -          no\n' +
        '2     today 17:15  in_delivery  -          -          no\n' +
        '3     today 18:15  -            delivered  no_reason  no\n',
      stderr: HEAD + NOTE(70, 'IN, OCCURRED, COPIES'),
    });
    expect(await onTerminal(['sandbox', 'simulate', id], 60)).toEqual({
      code: 0,
      stdout:
        'STEP  EVENT        OUTCOME    REASON     APPLIED\n' +
        '0     picked_up    -          -          no\n' +
        '1     in_transit   -          -          no\n' +
        '2     in_delivery  -          -          no\n' +
        '3     -            delivered  no_reason  no\n',
      stderr: HEAD + NOTE(60, 'ARRIVES, IN, OCCURRED, COPIES'),
    });
  });
});

describe('sandbox clock at a terminal', () => {
  it('shows the time in the local zone (UTC with --utc, and piped or --json as the sandbox sends it)', async () => {
    // The time first, then how far it is moved from this machine's clock; the milliseconds last.
    expect((await onTerminal(['sandbox', 'clock'], 100)).stdout).toBe('now     today 13:00 (just now)\nmoved   in step with this machine\nfrozen  yes\nspeed   1\nnow_ms  1793620800000\n');
    expect((await onTerminal(['sandbox', 'clock', '-o', 'wide'], 100)).stdout).toContain('now     2026-11-02T13:00:00+01:00 (just now)\n');
    expect((await onTerminal(['sandbox', 'clock', '--utc'], 100)).stdout).toContain('now     today 12:00 (just now)\n');
    expect((await onTerminal(['sandbox', 'clock', '--utc', '-o', 'wide'], 100)).stdout).toContain('now     2026-11-02T12:00:00Z (just now)\n');
    expect((await runCli(['sandbox', 'clock'], { env: env() })).stdout).toContain('now\t2026-11-02T12:00:00.000Z\n');
  });
});
