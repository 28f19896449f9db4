/**
 * Issue 20's "done when" on a real terminal: the BUILT CLI in Amsterdam's time zone, colour on and
 * off, the table views at 60, 100 and 200 columns (narrower where issue 30's short ids and compact times fit 60) (list, sandbox logs, batches, outbox, track A B C)
 * and the others at one width (get, track, track --watch to its end, doctor, help exit-codes). Each
 * screen is asserted whole, line by line: ids and times by their known values from the sandbox,
 * ages and timings (which vary with the run) by pattern. One sandbox for the file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, startCli } from '../helpers/pty.js';
import type { PtyRun } from '../helpers/pty.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { deferHintReplay, replayTestHints } from '../helpers/spawned-hints.js';

const TZ = 'Europe/Amsterdam';
const ESC = '\u001b';
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let from: string;
/** Three parcels from one bulk run: the first delivered, the second with an event waiting in the outbox. */
const ids: string[] = [];
const parcel: Record<string, { created_at: number; updated_at: number }> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY, PARCELS_SANDBOX_ADMIN_TOKEN: sandbox.adminToken });
  from = join(env.PARCELS_CONFIG_DIR as string, 'in.ndjson');
  writeFileSync(from, ['1', '2', '3'].map((n) => `${JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: n })}\n`).join(''));
  const bulk = await parcels(['create', '--from', from], { env });
  expect(bulk.code, bulk.stderr).toBe(0);
  for (const line of bulk.stdout.trim().split('\n')) ids.push((JSON.parse(line) as { entry_id: string }).entry_id);
  const [first = '', second = ''] = ids;
  for (const args of [['events', 'add', first, '--status', 'in_transit'], ['attempts', 'add', first, '--outcome', 'delivered']]) {
    const r = await parcels(args, { env });
    expect(r.code, r.stderr).toBe(0);
  }
  expect((await parcels(['events', 'add', second, '--status', 'picked_up', '--offline'], { env })).code).toBe(75);
  for (const id of ids) parcel[id] = (JSON.parse((await parcels(['get', id, '--json'], { env })).stdout) as { created_at: number; updated_at: number });
});
// The views build on one sandbox and one config dir: the hints are replayed at the end, before it closes.
deferHintReplay();
afterAll(async () => {
  await replayTestHints();
  await sandbox.close();
});

/** A time as the CLI shows it on a terminal in Amsterdam: ISO 8601 with the zone's offset. */
function local(seconds: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' })
      .formatToParts(new Date(seconds * 1000))
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : (parts.timeZoneName as string).slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A line asserted whole: text exactly, or a pattern (for what varies: ages, timings, ports). */
type Line = string | RegExp;
const line = (...parts: (string | RegExp)[]): RegExp => new RegExp(`^${parts.map((p) => (typeof p === 'string' ? escape(p) : p.source)).join('')}$`);
const AGE = /\d+[sm] ago/;
const LOCAL_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00/;
/** A time as a terminal's default view shows it (issue 30): `today 19:45`, or `27 Nov 19:45` past midnight. */
const COMPACT_TIME = /(today|\d\d? [A-Z][a-z]{2}) \d\d:\d\d/;
/** A parcel id as a terminal's default table shows it: these three random UUIDs differ in their first 8 characters. */
const short = (id: string): string => id.slice(0, 8);
const NOTE = (columns: number, names: string): string => `Not shown at ${columns} columns: ${names} (widen the terminal, or use -o wide or --json)`;

function expectScreen(lines: readonly string[], expected: readonly Line[], what: string): void {
  expect(lines.length, `${what}:\n${lines.join('\n')}`).toBe(expected.length);
  expected.forEach((want, i) => {
    const got = lines[i] ?? '';
    if (typeof want === 'string') expect(got, `${what}, line ${i + 1}`).toBe(want);
    else expect(got, `${what}, line ${i + 1}`).toMatch(want);
  });
}

/** Runs the CLI with colour on and then off: both screens are the expected one; colour off writes no style at all. */
async function bothColours(args: string[], columns: number, expected: readonly Line[], code = 0): Promise<PtyRun> {
  let coloured: PtyRun | undefined;
  for (const colour of [true, false]) {
    const run = startCli(args, { env, columns, colour, tz: TZ });
    expect(await run.exited).toBe(code);
    expectScreen(run.lines(), expected, `parcels ${args.join(' ')} at ${columns} columns, colour ${colour ? 'on' : 'off'}`);
    for (const key of ALL_KEYS) expect(run.raw()).not.toContain(key);
    if (colour) coloured = run;
    else expect(run.raw()).not.toMatch(new RegExp(`${ESC}\\[[\\d;]*m`));
  }
  return coloured as PtyRun;
}

/** The bold runs of a row: a header in bold is the one header style. */
const boldOf = (run: PtyRun, row: number): string[] => run.styled(row).filter((r) => r.bold).map((r) => r.text.trim());

describe.skipIf(!hasPty)('issue 20 views on a real terminal', () => {
  it('sandbox logs: routes whole without /deliveries/v1, their status kept at 60 columns', async () => {
    const [a = ''] = ids;
    const routes: [string, string, string][] = [
      ['POST', '/parcels', '201'],
      ['POST', '/parcels', '201'],
      ['POST', '/parcels', '201'],
      ['POST', `/parcels/${a}/events`, '201'],
      ['GET', '/reference', '200'],
      ['POST', `/parcels/${a}/attempts`, '201'],
      // beforeAll's `get --json`, one per parcel.
      ...ids.map((id): [string, string, string] => ['GET', `/parcels/${id}`, '200']),
    ];
    const width = Math.max(...routes.map(([, route]) => route.length));
    // The first test of the file: the log holds only what beforeAll sent.
    const logs = ['sandbox', 'logs'];
    const narrow = await bothColours(logs, 60, [
      `${'ROUTE'.padEnd(width)}  HTTP`,
      ...routes.map(([, route, status]) => `${route.padEnd(width)}  ${status}`),
      NOTE(60, 'SEQ, TIME, METHOD, REPLAY, MS'),
    ]);
    expect(boldOf(narrow, 0)).toEqual(['ROUTE', 'HTTP']);
    await bothColours(logs, 200, [
      line('SEQ  TIME', / +/, `METHOD  ${'ROUTE'.padEnd(width)}  HTTP  REPLAY  MS`),
      ...routes.map(([method, route, status], i) => line(`${String(i + 1).padEnd(3)}  `, COMPACT_TIME, `  ${method.padEnd(6)}  ${route.padEnd(width)}  ${status}   no      `, /\d+(\.\d+)? */)),
    ]);
    // 100 columns hold the time (compact) with the route (the attempts route is 54 characters) and
    // its status; whether REPLAY and MS fit too depends on how wide the timings of this run are.
    const hundred = startCli(logs, { env, columns: 100, tz: TZ });
    expect(await hundred.exited).toBe(0);
    const [header, ...rest] = hundred.lines();
    expect(header).toMatch(line('SEQ  TIME', / +/, `METHOD  ${'ROUTE'.padEnd(width)}  HTTP`, /( +REPLAY)?( +MS)?/));
    routes.forEach(([method, route, status], i) =>
      expect(rest[i]).toMatch(line(`${String(i + 1).padEnd(3)}  `, COMPACT_TIME, `  ${method.padEnd(6)}  ${route.padEnd(width)}  ${status}`, /( +no)?( +\d+(\.\d+)?)?/)),
    );
    expect(rest.slice(routes.length).join('\n')).toMatch(/^(Not shown at 100 columns: (REPLAY|MS|REPLAY, MS) \(widen the terminal, or use -o wide or --json\))?$/);
    // -o wide: the whole time.
    const wide = startCli([...logs, '-o', 'wide'], { env, columns: 200, tz: TZ });
    expect(await wide.exited).toBe(0);
    expect(wide.lines()[1]).toMatch(LOCAL_TIME);
  });

  it('parcels list at 36, 60, 100 and 200 columns: ids as unique prefixes, whole status names, the left-out columns named once', async () => {
    const [a = '', b = '', c = ''] = ids.map(short);
    const narrow = await bothColours(['list'], 36, [
      'ID        STATUS      COURIER',
      `${a}  delivered   A-BIKE`,
      `${b}  registered  A-BIKE`,
      `${c}  registered  A-BIKE`,
      NOTE(36, 'ADDRESS, AGE'),
    ]);
    expect(boldOf(narrow, 0)).toEqual(['ID', 'STATUS', 'COURIER']);
    // Delivered reads green; the colour ends with its cell.
    expect(narrow.styled(1).map((r) => [r.text.trim(), r.fg])).toEqual([[a, 'default'], ['delivered', '2'], ['A-BIKE', 'default']]);
    for (const columns of [60, 100, 200]) {
      await bothColours(['list'], columns, [
        'ID        STATUS      COURIER  ADDRESS   AGE',
        line(`${a}  delivered   A-BIKE   1234AB 1  `, AGE),
        line(`${b}  registered  A-BIKE   1234AB 2  `, AGE),
        line(`${c}  registered  A-BIKE   1234AB 3  `, AGE),
      ]);
    }
  });

  it('batches: the batch id whole at every width; its count before its input', async () => {
    const batch = /[0-9a-f]{16}/;
    await bothColours(['batches'], 60, [line('BATCH', / +/, 'DONE  AGE'), line(batch, '  3     ', /\d+[sm]/), NOTE(60, 'INPUT')]);
    for (const columns of [100, 200]) {
      await bothColours(['batches'], columns, [line(`BATCH${' '.repeat(13)}${'INPUT'.padEnd(from.length + 2)}DONE  AGE`), line(batch, `  ${from}  3     `, /\d+[sm]/)]);
    }
  });

  it('outbox: the waiting entry says what it carries at every width; its parcel as an 8-character prefix; the capture time compact from 100 columns', async () => {
    const b = ids[1] as string;
    const row = `events add  ${short(b)}  status picked_up  waiting`;
    await bothColours(['outbox'], 60, [line('SEQ  AGE', / +/, 'COMMAND     PARCEL    WHAT              STATE'), line('1    ', /\d+[sm] +/, row), NOTE(60, 'CAPTURED')]);
    for (const columns of [100, 200]) {
      await bothColours(['outbox'], columns, [
        line('SEQ  AGE', / +/, 'CAPTURED', / +/, 'COMMAND     PARCEL    WHAT              STATE'),
        line('1    ', /\d+[sm] +/, COMPACT_TIME, / +/, row),
      ]);
    }
  });

  it('track A B C: latest entry and delivered kept before status and age', async () => {
    const [a = '', b = '', c = ''] = ids;
    await bothColours(['track', a, b, c], 40, [
      'ID        LATEST               DELIVERED',
      `${short(a)}  attempt 1: deliver…  yes`,
      `${short(b)}  -                    no`,
      `${short(c)}  -                    no`,
      NOTE(40, 'STATUS, AGE'),
    ]);
    for (const columns of [100, 200]) {
      await bothColours(['track', a, b, c], columns, [
        // AGE is as wide as its widest age ('9s ago', '10s ago').
        line(`ID        STATUS      LATEST                AGE`, / +/, 'DELIVERED'),
        line(`${short(a)}  delivered   attempt 1: delivered  `, AGE, / +yes/),
        line(`${short(b)}  registered  -`, / +/, 'no'),
        line(`${short(c)}  registered  -`, / +/, 'no'),
      ]);
    }
  });

  /** `get`'s record: the fields that hold something (issue 30), times compact in Amsterdam with their age. */
  const record = (id: string): Line[] => [
    `entry_id     ${id}`,
    'courier      A-BIKE',
    'country      NL',
    'postal_code  1234AB',
    'number       1',
    'status       delivered',
    line('created_at   ', COMPACT_TIME, ' (', AGE, ')'),
    line('updated_at   ', COMPACT_TIME, ' (', AGE, ')'),
  ];
  /** With `-o wide`: every field, times whole. */
  const wideRecord = (id: string): Line[] => {
    const p = parcel[id] as { created_at: number; updated_at: number };
    return [
      `entry_id                ${id}`,
      'courier                 A-BIKE',
      'country                 NL',
      'postal_code             1234AB',
      'number                  1',
      ...['addition', 'parcel_length', 'parcel_width', 'parcel_height', 'parcel_weight', 'time_slot_period_start', 'time_slot_period_end', 'service_type'].map((f) => `${f.padEnd(24)}-`),
      'status                  4 delivered',
      line(`created_at              ${local(p.created_at)} (`, AGE, ')'),
      line(`updated_at              ${local(p.updated_at)} (`, AGE, ')'),
    ];
  };

  it('get and track at 100 columns: the record, then the timeline coloured by outcome', async () => {
    const a = ids[0] as string;
    await bothColours(['get', a], 100, record(a));
    await bothColours(['get', a, '-o', 'wide'], 100, wideRecord(a));
    const timeline = [
      '',
      'Timeline',
      // The AGE column is as wide as its widest age ('9s ago', '10s ago'); no column stands over nothing.
      line('TIME', / +/, 'AGE', / +/, 'ENTRY      STATE'),
      line(COMPACT_TIME, '  ', AGE, / +/, 'event      in_transit'),
      line(COMPACT_TIME, '  ', AGE, / +/, 'attempt 1  delivered'),
    ];
    const run = await bothColours(['track', a], 100, [...record(a), ...timeline]);
    const rows = run.lines().length;
    expect(run.styled(rows - 1).find((r) => r.text.includes('delivered'))?.fg).toBe('2');
    // --watch over a delivered parcel: the same screen, then one line saying how it ended.
    await bothColours(['track', a, '--watch', '--interval', '1'], 100, [
      ...record(a),
      '',
      'Timeline',
      // Streamed as entries arrive: fixed widths, not fitted to what came first.
      line('TIME', / +/, 'AGE       ENTRY       STATE                REASON             DELIVERED'),
      line(COMPACT_TIME, '  ', AGE, / +/, 'event       in_transit'),
      line(COMPACT_TIME, '  ', AGE, / +/, 'attempt 1   delivered'),
      'delivered; stopped watching',
    ]);
  });

  it('doctor at 100 columns: a checklist, the warning with its fix beneath it', async () => {
    const url = sandbox.url;
    const config = join(env.PARCELS_CONFIG_DIR as string, 'config.json');
    const run = await bothColours(['doctor'], 100, [
      `✓ settings                profile "default" (default), base URL ${url}`,
      '                          (PARCELS_BASE_URL), key from PARCELS_API_KEY',
      line(`✓ host                    ${url} answered in `, /\d+ ms/),
      '✓ key                     accepted (from PARCELS_API_KEY)',
      '✓ scope deliveries:read   held',
      '✓ scope deliveries:write  held',
      '✓ scope usage:read        held',
      '✓ scope oracle:read       held',
      '✓ clock                   in step with the service',
      `✓ config file             none at ${config} (settings come from flags and`,
      '                          the environment)',
      '! outbox                  1 request captured while offline waits to be sent',
      '                          → run `parcels outbox flush` once the service answers (each request keeps',
      '                          its key, so none applies twice)',
      '✓ bulk batches            none unfinished',
      '! No failures; 1 warning (each with its fix above)',
    ]);
    expect(run.styled(0)[0]).toMatchObject({ text: '✓', fg: '2' });
    expect(run.styled(11)[0]).toMatchObject({ text: '!', fg: '3' });
  });

  it('help exit-codes at 60 columns: wrapped at word boundaries, the JSON example whole', async () => {
    const run = await bothColours(['help', 'exit-codes'], 60, [
      'Exit codes (stable; scripts may rely on them):',
      '',
      '  0    success',
      '  1    unexpected failure (a bug, or an error with no better',
      '       code)',
      '  2    invalid usage or input rejected before sending:',
      '       nothing was sent',
      '  3    authentication or permission: 401 (invalid or expired',
      '       key), 403 (missing scope or verification), or no API',
      '       key for the profile (nothing was sent)',
      '  4    not found: 404',
      '  5    conflict or stale precondition: 409 (Idempotency-Key',
      '       reused with another body), 412 (stale or missing',
      '       If-Match)',
      '  6    rejected by the service\'s validation: 400, 422, and',
      '       any other 4xx',
      '  7    rate limited: 429 still answered after all retries',
      '  8    service unavailable: 5xx or a network failure after',
      '       all retries',
      '  9    the sandbox (--sandbox, sandbox serve) cannot run:',
      '       better-sqlite3, an optional dependency, is not',
      '       installed or its native addon does not load; the',
      '       error names the command to install it',
      '  10   validate-address --exit-status: the service says the',
      '       address is not valid',
      '  11   not delivered: `track --watch --fail-on-attempt` saw',
      '       an attempt that did not deliver the parcel',
      "  12   --jq-exit-status: the --jq filter's last result was",
      '       false or null, or it gave none (as jq -e decides)',
      '  75   queued, not sent yet: --queue kept the request in the',
      '       outbox (`parcels outbox flush` sends it)',
      '  130  interrupted (Ctrl-C, SIGINT)',
      '  143  terminated (SIGTERM)',
      '',
      'With --output json (or --json), errors are one JSON line on',
      'stderr:',
      '  {"error":{"status":422,"code":"validation_failed","message":"…","exit_code":6}}',
    ]);
    expect(run.lines().slice(0, -1).every((l) => l.length <= 60)).toBe(true);
  });
});
