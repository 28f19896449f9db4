/** `parcels track`, in-process against a real sandbox on port 0: exact stdout, stderr and exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, json, parcelTsv, startHarness, tsvField } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** 2020-01-01T10:00:00Z; the story below happens over the next day, read a day later. */
const T = 1_577_872_800;
const NOW = T + 2 * 86_400;
const now = () => NOW;

/** A parcel whose events and attempts were reported out of time order: picked up, failed, in transit, delivered elsewhere. */
async function storyParcel(): Promise<string> {
  const id = await createParcel(h);
  const steps = [
    ['events', 'add', id, '--status', 'in_transit', '--at', String(T + 3600)],
    ['events', 'add', id, '--status', 'picked_up', '--at', String(T)],
    ['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--at', String(T + 1800)],
    [
      ...['attempts', 'add', id, '--outcome', 'delivered_elsewhere', '--at', String(T + 86_400)],
      ...['--delivered-country', 'NL', '--delivered-postal-code', '1234AB', '--delivered-number', '12', '--delivered-street', 'Dorpsstraat'],
    ],
  ];
  for (const argv of steps) expect((await h.cli(argv)).code).toBe(0);
  return id;
}

const TIMELINE_TSV =
  'time\tentry\tstate\treason\tdelivered\n' +
  '2020-01-01T10:00:00Z\tevent\t1 picked_up\t\t\n' +
  '2020-01-01T10:30:00Z\tattempt 1\t1 failed\t1 not_at_home\t\n' +
  '2020-01-01T11:00:00Z\tevent\t2 in_transit\t\t\n' +
  '2020-01-02T10:00:00Z\tattempt 2\t2 delivered_elsewhere\t\tDorpsstraat 12, 1234AB, NL\n';

/** A run on a terminal `columns` wide (stderr is one too: it may show a spinner while requests wait). */
async function onTerminal(argv: string[], columns: number, colour = false) {
  // The operator of issue 20: a depot in Amsterdam (+01:00 in January).
  const env = h.env({ TZ: 'Europe/Amsterdam' });
  const captured = captureIO({ env, tty: true, columns, colour });
  const code = await run(argv, { io: captured.io, env, now });
  return h.record({ code, stdout: captured.stdout(), stderr: captured.stderr() });
}

describe('track ID', () => {
  it('piped: the parcel as key/value rows, then one timeline of events and attempts in time order', async () => {
    const id = await storyParcel();
    const r = await h.cli(['track', id], { now });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const at = tsvField(r.stdout, 'created_at');
    const updated = tsvField(r.stdout, 'updated_at');
    expect(r.stdout).toBe(parcelTsv({ id, status: '4 delivered', at, updated }) + '\nTimeline\n' + TIMELINE_TSV);
  });

  it('on a terminal: compact local times, code names alone, an aligned timeline under a heading; narrower, whole columns go and are named', async () => {
    const id = await storyParcel();
    const timeline = (r: { stdout: string }): string => r.stdout.slice(r.stdout.indexOf('\nTimeline\n'));
    const whole = [
      '',
      'Timeline',
      'TIME         AGE     ENTRY      STATE                REASON       DELIVERED',
      '1 Jan 11:00  2d ago  event      picked_up',
      '1 Jan 11:30  1d ago  attempt 1  failed               not_at_home',
      '1 Jan 12:00  1d ago  event      in_transit',
      '2 Jan 11:00  1d ago  attempt 2  delivered_elsewhere               Dorpsstraat 12, 1234AB, NL',
      '',
    ].join('\n');
    for (const columns of [200, 100]) {
      const r = await onTerminal(['track', id], columns);
      expect(r.code).toBe(0);
      // The record leaves out its empty fields: its keys align on the longest one shown.
      expect(r.stdout).toContain('\ncreated_at   ');
      expect(r.stdout).not.toContain('parcel_length');
      expect(timeline(r)).toBe(whole);
      expect(r.stderr).not.toContain('Not shown');
    }
    const narrow = await onTerminal(['track', id], 60);
    expect(timeline(narrow)).toBe(
      [
        '',
        'Timeline',
        'TIME         ENTRY      STATE                REASON',
        '1 Jan 11:00  event      picked_up',
        '1 Jan 11:30  attempt 1  failed               not_at_home',
        '1 Jan 12:00  event      in_transit',
        '2 Jan 11:00  attempt 2  delivered_elsewhere',
        '',
      ].join('\n'),
    );
    expect(narrow.stderr).toContain('Not shown at 60 columns: AGE, DELIVERED (widen the terminal, or use -o wide or --json)\n');
    const utc = await onTerminal(['track', id, '--utc'], 200);
    expect(timeline(utc).split('\n')[3]).toBe('1 Jan 10:00  2d ago  event      picked_up');
    // -o wide: whole times and codes with their numbers, every field of the record.
    const wide = await onTerminal(['track', id, '-o', 'wide'], 60);
    expect(wide.stdout).toContain('\nparcel_length           -\n');
    expect(timeline(wide).split('\n').slice(2, 4)).toEqual([
      'TIME                       AGE     ENTRY      STATE                  REASON         DELIVERED',
      '2020-01-01T11:00:00+01:00  2d ago  event      1 picked_up',
    ]);
    expect(wide.stderr).not.toContain('Not shown');
  });

  it('on a colour terminal a delivered attempt reads green, a failed or refused one red', async () => {
    const id = await storyParcel();
    const r = await onTerminal(['track', id], 200, true);
    expect(r.stdout).toContain('\u001b[31mattempt 1\u001b[39m  \u001b[31mfailed\u001b[39m');
    expect(r.stdout).toContain('\u001b[32mattempt 2\u001b[39m  \u001b[32mdelivered_elsewhere\u001b[39m');
    expect(r.stdout).toContain('  event      picked_up');
  });

  it('--json: { parcel, timeline: [{ kind, at, …record }] } with the records as the service sent them', async () => {
    const id = await storyParcel();
    const parcel = json(await h.cli(['get', id, '--json']));
    const events = json(await h.cli(['events', 'list', id, '--json'])).events as Record<string, unknown>[];
    const attempts = json(await h.cli(['attempts', 'list', id, '--json'])).attempts as Record<string, unknown>[];
    const byTime = (list: Record<string, unknown>[], field: string, at: number) => list.find((r) => r[field] === at) as Record<string, unknown>;
    const r = await h.cli(['track', id, '--json']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      JSON.stringify(
        {
          parcel,
          timeline: [
            { kind: 'event', at: T, ...byTime(events, 'occurred_at', T) },
            { kind: 'attempt', at: T + 1800, ...byTime(attempts, 'time_attempt', T + 1800) },
            { kind: 'event', at: T + 3600, ...byTime(events, 'occurred_at', T + 3600) },
            { kind: 'attempt', at: T + 86_400, ...byTime(attempts, 'time_attempt', T + 86_400) },
          ],
        },
        null,
        2,
      ) + '\n',
    );
  });

  it('--jq filters the JSON object; on several parcels each line; a bad expression is exit 2', async () => {
    const id = await storyParcel();
    expect(await h.cli(['track', id, '--jq', '[.timeline[] | .kind + " " + (.at | tostring)] | join(",")'])).toEqual({
      code: 0,
      stderr: '',
      stdout: `event ${T},attempt ${T + 1800},event ${T + 3600},attempt ${T + 86_400}\n`,
    });
    const other = await createParcel(h);
    expect(await h.cli(['track', id, other, '--jq', '.delivered'])).toEqual({ code: 0, stderr: '', stdout: 'true\nfalse\n' });
    const bad = await h.cli(['track', id, '--jq', '.timeline[']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
  });

  it('a parcel with no history yet: the heading, an empty timeline, and a note on stderr', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['track', id, '--output', 'csv'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const t = await h.cli(['track', id]);
    expect(t.stdout.endsWith('\nTimeline\ntime\tentry\tstate\treason\tdelivered\n')).toBe(true);
    expect(t.stderr).toBe('No events or attempts yet.\n');
    expect(json(await h.cli(['track', id, '--json'])).timeline).toEqual([]);
    // On a terminal no header stands over nothing: the note follows the heading, and the first entry brings its header.
    const terminal = await onTerminal(['track', id], 100);
    expect(terminal.stdout.endsWith('\nTimeline\n')).toBe(true);
    expect(terminal.stderr.endsWith('No events or attempts yet.\n')).toBe(true);
  });

  it('--from with empty input (a quiet day\'s list -o ndjson): says there are no parcels, exit 0, nothing sent', async () => {
    const none = { code: 0, stdout: '', stderr: 'No parcels to track: the --from input holds no parcel ids.\n' };
    expect(await h.cli(['track', '--from', '-'], { stdin: '' })).toEqual(none);
    expect(await h.cli(['track', '--from', '-', '--watch', '--interval', '1'], { stdin: '\n' })).toEqual(none);
    const list = await h.cli(['list', '--status', 'not_delivered', '-o', 'ndjson']);
    expect(list).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await h.cli(['track', '--from', '-', '--json'], { stdin: list.stdout })).toEqual(none);
  });

  it('takes a unique prefix (8+ characters) of an id this profile has seen', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    expect((await h.cli(['get', id], { dir })).code).toBe(0);
    const r = await h.cli(['track', id.slice(0, 8), '--json'], { dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ parcel: { entry_id: id }, timeline: [] });
    const unknown = await h.cli(['track', 'ffffffff'], { dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Error: .*no known parcel id starts with "ffffffff"/);
    expect(unknown.stdout).toBe('');
  });

  it('--dry-run shows the three reads and sends nothing', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['track', id, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^GET .*$/gm)).toEqual([
      `GET ${h.sandbox.url}/deliveries/v1/parcels/${id}`,
      `GET ${h.sandbox.url}/deliveries/v1/parcels/${id}/events`,
      `GET ${h.sandbox.url}/deliveries/v1/parcels/${id}/attempts`,
    ]);
  });

  it('an unknown parcel → exit 4', async () => {
    const r = await h.cli(['track', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: .*\nHint: check the id \(the parcel's entry_id UUID\) and that it belongs to your organisation\n$/);
  });
});

describe('track ID ID … / --from', () => {
  it('several parcels: their latest state, one TSV row each (piped)', async () => {
    const a = await storyParcel();
    const b = await createParcel(h);
    expect((await h.cli(['attempts', 'add', b, '--outcome', 'refused', '--reason', 'refused', '--at', String(T)])).code).toBe(0);
    const c = await createParcel(h);
    const r = await h.cli(['track', a, b, c, a], { now });
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n' +
        `${a}\t4 delivered\t2020-01-02T10:00:00Z\tattempt 2: 2 delivered_elsewhere\tDorpsstraat 12, 1234AB, NL\tyes\n` +
        `${b}\t5 not_delivered\t2020-01-01T10:00:00Z\tattempt 1: 3 refused (4 refused)\t\tno\n` +
        `${c}\t0 registered\t\t\t\tno\n`,
    });
  });

  it('on a terminal: a table without the columns empty in every row', async () => {
    const b = await createParcel(h);
    const c = await createParcel(h);
    expect((await h.cli(['events', 'add', b, '--status', 'in_delivery', '--at', String(T)])).code).toBe(0);
    const r = await onTerminal(['track', b, c], 160);
    expect(r.code).toBe(0);
    // Ids as their shortest unique prefixes (8 characters here), codes by name alone.
    expect(r.stdout).toBe(
      'ID        STATUS       LATEST              AGE     DELIVERED\n' +
        `${b.slice(0, 8)}  in_delivery  event: in_delivery  2d ago  no\n` +
        `${c.slice(0, 8)}  registered   -                           no\n`,
    );
    // At 40 columns the view keeps what it is for: the latest entry and whether it was delivered.
    const narrow = await onTerminal(['track', b, c], 40);
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).toBe('ID        LATEST              DELIVERED\n' + `${b.slice(0, 8)}  event: in_delivery  no\n` + `${c.slice(0, 8)}  -                   no\n`);
    // stderr is a terminal too (a spinner may have shown while the requests waited): the note ends it, once.
    expect(narrow.stderr.endsWith('Not shown at 40 columns: STATUS, AGE (widen the terminal, or use -o wide or --json)\n')).toBe(true);
    expect(narrow.stderr.split('Not shown').length).toBe(2);
  });

  it('--json: one NDJSON line per parcel { entry_id, parcel, latest, delivered }', async () => {
    const a = await storyParcel();
    const b = await createParcel(h);
    const r = await h.cli(['track', a, b, '--json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l))).toEqual([
      ['entry_id', 'parcel', 'latest', 'delivered'],
      ['entry_id', 'parcel', 'latest', 'delivered'],
    ]);
    expect(lines[0]).toMatchObject({ entry_id: a, parcel: { entry_id: a, status: 4 }, latest: { kind: 'attempt', at: T + 86_400, attempt_no: 2, outcome: 2 }, delivered: true });
    expect(lines[1]).toEqual({ entry_id: b, parcel: json(await h.cli(['get', b, '--json'])), latest: null, delivered: false });
  });

  it('--from - reads ids from stdin: plain lines or NDJSON with entry_id (list --output ndjson pipes in)', async () => {
    const a = await createParcel(h);
    const b = await createParcel(h);
    const piped = `${JSON.stringify({ entry_id: a, status: 0 })}\n\n${b}\n`;
    const r = await h.cli(['track', '--from', '-', '--output', 'ndjson'], { stdin: piped });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { entry_id: string }).entry_id)).toEqual([a, b]);
    // One id from --from is still the several-parcels view.
    const one = await h.cli(['track', '--from', '-'], { stdin: `${a}\n` });
    expect(one.stdout).toBe(`entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n${a}\t0 registered\t\t\t\tno\n`);
  });

  it('unknown parcels among several: the found ones on stdout, one error per missing id on stderr in argument order, exit 4', async () => {
    const a = await createParcel(h);
    const missing = '00000000-0000-4000-8000-000000000000';
    const other = '00000000-0000-4000-8000-000000000001';
    const r = await h.cli(['track', other, a, missing]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe(`entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n${a}\t0 registered\t\t\t\tno\n`);
    const hint = "Hint: check the id (the parcel's entry_id UUID) and that it belongs to your organisation\n";
    expect(r.stderr).toBe(`Error: parcel ${other}: no parcel with entry_id ${other}\n${hint}Error: parcel ${missing}: no parcel with entry_id ${missing}\n${hint}`);
    // Scripts: NDJSON for the found one, one JSON error line per missing id.
    const j = await h.cli(['track', a, missing, '--json']);
    expect(j.code).toBe(4);
    expect((JSON.parse(j.stdout) as { entry_id: string }).entry_id).toBe(a);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { status: 404, exit_code: 4, message: `parcel ${missing}: no parcel with entry_id ${missing}` } });
    // None found: nothing on stdout.
    expect(await h.cli(['track', missing, other])).toMatchObject({ code: 4, stdout: '' });
  });
});

describe('help exit-codes', () => {
  it('lists 11 for track --watch --fail-on-attempt', async () => {
    const r = await h.cli(['help', 'exit-codes']);
    // Piped: wrapped to 80 columns like every help text.
    expect(r.stdout).toContain('\n  11   not delivered: `track --watch --fail-on-attempt` saw an attempt that did\n       not deliver the parcel\n  12 ');
  });
});

describe('track: bad input → exit 2, nothing sent', () => {
  const ID = '0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21';
  const cases: [string[], string][] = [
    [['track'], 'Error: give at least one parcel ID, or --from FILE (- for stdin)\n'],
    [['track', 'nope'], 'Error: ID must be a UUID, the parcel\'s entry_id (got "nope")\n'],
    [['track', ID, '--interval', '10'], 'Error: --interval works only with --watch\n'],
    [['track', ID, '--fail-on-attempt'], 'Error: --fail-on-attempt works only with --watch\n'],
    [['track', ID, '--watch', '--interval', '0'], 'Error: --interval must be between 1 and 86400 (got 0)\n'],
    [['track', ID, '--watch', '--output', 'csv'], 'Error: --output: --watch prints a table or NDJSON lines, not csv\n'],
    [['track', ID, '--fields', 'status'], 'Error: --fields does not apply to track; use --json for the parcel and its timeline, or --jq to pick values\n'],
    [['track', '--from', '-'], 'Error: --from line 2 must be a parcel id (a UUID) or a JSON object\n'],
  ];
  for (const [argv, stderr] of cases) {
    it(argv.slice(1).join(' ') || '(no id)', async () => {
      expect(await h.cli(argv, { stdin: `${ID}\nx\n` })).toEqual({ code: 2, stdout: '', stderr });
    });
  }

  it('--interval under 5 s only against this machine', async () => {
    const remote = await h.cli(['track', ID, '--watch', '--interval', '2', '--base-url', 'https://api.example.com']);
    expect(remote).toEqual({ code: 2, stdout: '', stderr: 'Error: --interval must be at least 5 seconds (1 against this machine) (got 2)\n' });
  });
});

interface Watching {
  stdout(): string;
  stderr(): string;
  code: Promise<number>;
  stop(reason: 'SIGINT' | 'SIGTERM'): void;
}

/** `parcels track … --watch` in-process, its output readable while it runs. */
function startWatch(argv: string[], terminal?: { columns: number }): Watching {
  const env = h.env();
  const captured = captureIO({ env, tty: terminal !== undefined, columns: terminal?.columns });
  const controller = new AbortController();
  const code = run(argv, { io: captured.io, env, now, signal: controller.signal });
  return { stdout: captured.stdout, stderr: captured.stderr, code, stop: (reason) => controller.abort(reason) };
}

async function finished(w: Watching) {
  return h.record({ code: await w.code, stdout: w.stdout(), stderr: w.stderr() });
}

describe('track --watch', () => {
  it('prints the timeline, then each new entry, and ends with 0 when an attempt delivers the parcel', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['events', 'add', id, '--status', 'picked_up', '--at', String(T)])).code).toBe(0);
    const w = startWatch(['track', id, '--watch', '--interval', '1']);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain('\t1 picked_up\t');
    expect((await h.cli(['events', 'add', id, '--status', 'in_delivery', '--at', String(T + 60)])).code).toBe(0);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain('\t3 in_delivery\t');
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered', '--at', String(T + 120)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('delivered; stopped watching\n');
    expect(r.stdout.slice(r.stdout.indexOf('\nTimeline\n'))).toBe(
      '\nTimeline\n' +
        'time\tentry\tstate\treason\tdelivered\n' +
        '2020-01-01T10:00:00Z\tevent\t1 picked_up\t\t\n' +
        '2020-01-01T10:01:00Z\tevent\t3 in_delivery\t\t\n' +
        '2020-01-01T10:02:00Z\tattempt 1\t0 delivered\t\t\n',
    );
  });

  it('on a terminal: new rows line up under the timeline (room is left for them)', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['events', 'add', id, '--status', 'picked_up', '--at', String(T)])).code).toBe(0);
    const w = startWatch(['track', id, '--watch', '--interval', '1'], { columns: 120 });
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain('  picked_up');
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'address_not_found', '--at', String(T + 60)])).code).toBe(0);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain('  failed');
    const delivered = ['--delivered-country', 'NL', '--delivered-postal-code', '1011AB', '--delivered-number', '5', '--delivered-city', 'Amsterdam'];
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere', ...delivered, '--at', String(T + 120)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(r.stdout.slice(r.stdout.indexOf('\nTimeline\n'))).toBe(
      [
        '',
        'Timeline',
        'TIME         AGE       ENTRY       STATE                REASON             DELIVERED',
        '1 Jan 10:00  2d ago    event       picked_up',
        '1 Jan 10:01  1d ago    attempt 1   failed               address_not_found',
        '1 Jan 10:02  1d ago    attempt 2   delivered_elsewhere                     5, 1011AB Amsterdam, NL',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal, a parcel with no entries yet: the note, then the first entry with its header under the Timeline heading', async () => {
    const id = await createParcel(h);
    const w = startWatch(['track', id, '--watch', '--interval', '1'], { columns: 120 });
    await expect.poll(() => w.stderr(), { timeout: 5000 }).toContain('No events or attempts yet.');
    expect(w.stdout().endsWith('\nTimeline\n')).toBe(true);
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered', '--at', String(T)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(r.stdout.slice(r.stdout.indexOf('\nTimeline\n'))).toBe(
      [
        '',
        'Timeline',
        'TIME         AGE       ENTRY       STATE                REASON             DELIVERED',
        '1 Jan 10:00  2d ago    attempt 1   delivered',
        '',
      ].join('\n'),
    );
  });

  it('--json: one NDJSON line per entry, naming the parcel', async () => {
    const id = await createParcel(h);
    const w = startWatch(['track', id, '--watch', '--interval', '1', '--json']);
    await expect.poll(() => h.sandbox.url && w.stdout(), { timeout: 3000 }).toBe('');
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered', '--at', String(T)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([{ entry_id: id, kind: 'attempt', at: T, attempt_no: 1, outcome: 0, reason: 0, time_attempt: T, delivered: null, recorded_at: expect.any(Number) }]);
  });

  it('--jq: each entry line through the filter', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['events', 'add', id, '--status', 'in_transit', '--at', String(T)])).code).toBe(0);
    const w = startWatch(['track', id, '--watch', '--interval', '1', '--jq', '.kind + ":" + ((.status // .outcome) | tostring)']);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toBe('event:2\n');
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered', '--at', String(T + 60)])).code).toBe(0);
    expect(await finished(w)).toEqual({ code: 0, stderr: '', stdout: 'event:2\nattempt:0\n' });
  });

  it('--fail-on-attempt: an attempt that fails while watching ends it with exit 11', async () => {
    const id = await createParcel(h);
    const w = startWatch(['track', id, '--watch', '--interval', '1', '--fail-on-attempt']);
    await expect.poll(() => w.stderr(), { timeout: 5000 }).toBe('No events or attempts yet.\n');
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'no_access', '--at', String(T)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(11);
    expect(r.stdout.endsWith('\n2020-01-01T10:00:00Z\tattempt 1\t1 failed\t3 no_access\t\n')).toBe(true);
    expect(r.stderr).toBe(`No events or attempts yet.\nError: parcel ${id} was not delivered: attempt 1: 1 failed (3 no_access)\n`);
    expect(json(await h.cli(['get', id, '--json'])).status).toBe(5);
  });

  it('several parcels: ends when all are delivered; new entries name their parcel', async () => {
    const a = await createParcel(h);
    const b = await createParcel(h);
    const w = startWatch(['track', a, b, '--watch', '--interval', '1']);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain(`${b}\t0 registered`);
    expect((await h.cli(['attempts', 'add', a, '--outcome', 'delivered', '--at', String(T)])).code).toBe(0);
    await expect.poll(() => w.stdout(), { timeout: 5000 }).toContain('New entries');
    expect((await h.cli(['attempts', 'add', b, '--outcome', 'delivered_elsewhere', '--at', String(T + 60)])).code).toBe(0);
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(r.stdout.slice(r.stdout.indexOf('\nNew entries\n'))).toBe(
      '\nNew entries\n' +
        'entry_id\ttime\tentry\tstate\treason\tdelivered\n' +
        `${a}\t2020-01-01T10:00:00Z\tattempt 1\t0 delivered\t\t\n` +
        `${b}\t2020-01-01T10:01:00Z\tattempt 1\t2 delivered_elsewhere\t\t\n`,
    );
  });

  it('Ctrl-C while it waits → exit 130, the output whole', async () => {
    const id = await createParcel(h);
    const w = startWatch(['track', id, '--watch', '--interval', '1']);
    await expect.poll(() => w.stderr(), { timeout: 3000 }).toBe('No events or attempts yet.\n');
    w.stop('SIGINT');
    const r = await finished(w);
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('No events or attempts yet.\n');
    expect(r.stdout.endsWith('\nTimeline\ntime\tentry\tstate\treason\tdelivered\n')).toBe(true);
  });
});
