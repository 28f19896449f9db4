/**
 * Issue 9, Views: per-resource tables on a terminal, -o wide, --fields, times, status colours,
 * -q, the next-page hint run as printed, --max, record sections and id prefixes. The sandbox's
 * clock is fixed, so ages and dates are exact.
 */
import { execFileSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { openKnownIds } from '../../src/config/known-ids.js';
import { targetId } from '../../src/config/target.js';
import { manualTime } from '../../src/sandbox/index.js';
import { compactTime } from '../../src/schemas/time-text.js';
import type { CliResult } from '../helpers/cli.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import type { Harness } from './harness.js';
import { ESC, PARCEL_FLAGS, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

// The sandbox's clock stands still at T0, close to the real time (the CLI warns about a service
// clock more than a minute off). Terminal times are shown in a fixed-offset zone, one hour east of UTC.
const T0 = Math.floor(Date.now() / 1000);
const ZONE = 'Etc/GMT-1';
/** `seconds` as the CLI should show it in ZONE. */
const local = (seconds: number): string => new Date((seconds + 3600) * 1000).toISOString().slice(0, 19) + '+01:00';
const utc = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 19) + 'Z';
const NOW = T0 + 150; // the CLI reads the parcels 2m30s after they were made
/** `seconds` as a terminal's default view shows it in ZONE (`today 19:45`); whole in `-o wide`. */
const compact = (seconds: number, zone = ZONE): string => compactTime(seconds, zone, NOW);
/** A parcel id as a terminal's default view shows it: these few random UUIDs differ in their first 8 characters. */
const short = (id: string): string => id.slice(0, 8);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ time: manualTime(T0 * 1000) });
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

interface TerminalOpts {
  columns?: number;
  colour?: boolean;
  env?: NodeJS.ProcessEnv;
  dir?: string;
}

/** `parcels …` on a terminal `columns` wide, colour on or off, in the Amsterdam time zone unless told otherwise. */
async function onTerminal(argv: string[], opts: TerminalOpts = {}): Promise<CliResult> {
  const env = h.env({ TZ: ZONE, ...(opts.dir === undefined ? {} : { PARCELS_CONFIG_DIR: opts.dir }), ...opts.env });
  const captured = captureIO({ env, tty: true, colour: opts.colour ?? false, columns: opts.columns ?? 80 });
  // stdout is the terminal under test; stderr is kept free of the spinner so it can be compared exactly.
  captured.io.stderrIsTTY = false;
  captured.io.stderrColour = false;
  const code = await run(argv, { io: captured.io, env, now: () => NOW });
  return h.record({ code, stdout: captured.stdout(), stderr: captured.stderr() });
}

/** Piped (not a terminal), with the fixed clock. */
async function piped(argv: string[], dir?: string): Promise<CliResult> {
  return h.cli(argv, { now: () => NOW, ...(dir === undefined ? {} : { dir }) });
}

/** A table line as table.ts lays it out: cells padded to their column width, two spaces apart, no trailing blanks. */
function line(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ') + '\n';
}

/** Runs a printed `parcels …` command exactly as printed: the shell splits the words, the CLI runs them. */
async function runPrinted(command: string, dir?: string): Promise<CliResult> {
  expect(command.startsWith('parcels ')).toBe(true);
  const words = execFileSync('bash', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' }).split('\0').slice(1, -1);
  return piped(words, dir);
}

let ids: string[];
let delivered: string;
beforeAll(async () => {
  ids = [];
  for (const number of ['10', '11', '12']) ids.push(await createParcel(h, ['--number', number].concat([]), { now: () => T0 }));
  // createParcel passes PARCEL_FLAGS (number 10) first; the later --number wins.
  delivered = ids[2] as string;
  expect((await h.cli(['attempts', 'add', delivered, '--outcome', 'delivered', '--at', String(T0), '-q'], { now: () => T0 })).code).toBe(0);
});

describe('parcels list on a terminal: the default view', () => {
  const widths = [8, 10, 7, 9];
  const header = line(['ID', 'STATUS', 'COURIER', 'ADDRESS', 'AGE'], widths);
  const rows = (): string =>
    line([short(ids[0] as string), 'registered', 'A-BIKE', '1234AB 10', '2m ago'], widths) +
    line([short(ids[1] as string), 'registered', 'A-BIKE', '1234AB 11', '2m ago'], widths) +
    line([short(ids[2] as string), 'delivered', 'A-BIKE', '1234AB 12', '2m ago'], widths);

  it('at 80 and at 200 columns, colour on and off: the same columns, ids as unique prefixes', async () => {
    for (const columns of [80, 200]) {
      const plain = await onTerminal(['list', '--courier', 'A-BIKE'], { columns });
      expect(plain).toEqual({ code: 0, stdout: header + rows(), stderr: '' });
      const coloured = await onTerminal(['list', '--courier', 'A-BIKE'], { columns, colour: true });
      expect(coloured.code).toBe(0);
      expect(coloured.stdout).toContain(ESC);
      expect(stripVTControlCharacters(coloured.stdout)).toBe(plain.stdout);
      expect(coloured.stderr).toBe('');
    }
  });

  it('colours delivered green on a colour terminal, in-progress statuses plain; NO_COLOR turns it off', async () => {
    const coloured = await onTerminal(['list', '--courier', 'A-BIKE'], { colour: true });
    expect(coloured.stdout).toContain('\u001b[32mdelivered\u001b[39m');
    expect(coloured.stdout).toContain(`${short(ids[0] as string)}  registered  `);
    const noColor = await onTerminal(['list', '--courier', 'A-BIKE'], { env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
  });

  it('at 36 columns whole low-priority columns go (said once on stderr); names and ids are never cut', async () => {
    const r = await onTerminal(['list', '--courier', 'A-BIKE'], { columns: 36 });
    const narrow = [8, 10];
    expect(r).toEqual({
      code: 0,
      stdout:
        line(['ID', 'STATUS', 'COURIER'], narrow) +
        line([short(ids[0] as string), 'registered', 'A-BIKE'], narrow) +
        line([short(ids[1] as string), 'registered', 'A-BIKE'], narrow) +
        line([short(ids[2] as string), 'delivered', 'A-BIKE'], narrow),
      stderr: 'Not shown at 36 columns: ADDRESS, AGE (widen the terminal, or use -o wide or --json)\n',
    });
    // At 60 columns everything fits, as at 200.
    expect(await onTerminal(['list', '--courier', 'A-BIKE'], { columns: 60 })).toEqual({ code: 0, stdout: header + rows(), stderr: '' });
  });

  it('-o wide shows every field, with dates in the local zone and their age', async () => {
    const r = await onTerminal(['list', '--courier', 'A-BIKE', '-o', 'wide'], { columns: 80 });
    expect(r.code).toBe(0);
    const headers = r.stdout.split('\n')[0]?.split(/\s{2,}/);
    expect(headers).toEqual([
      'ENTRY_ID',
      'STATUS',
      'COURIER',
      'COUNTRY',
      'POSTAL_CODE',
      'NUMBER',
      'ADDITION',
      'PARCEL_LENGTH',
      'PARCEL_WIDTH',
      'PARCEL_HEIGHT',
      'PARCEL_WEIGHT',
      'TIME_SLOT_PERIOD_START',
      'TIME_SLOT_PERIOD_END',
      'SERVICE_TYPE',
      'CREATED_AT',
      'UPDATED_AT',
    ]);
    expect(r.stdout).toContain(`${local(T0)} (2m ago)`);
    expect(r.stdout).toContain(`\n${ids[0]}  `);
  });

  it('--utc shows the dates in UTC (compact, and whole with -o wide)', async () => {
    const r = await onTerminal(['get', ids[0] as string, '--utc']);
    expect(r.stdout).toContain(`\ncreated_at   ${compact(T0, 'UTC')} (2m ago)\n`);
    const wide = await onTerminal(['get', ids[0] as string, '--utc', '-o', 'wide']);
    expect(wide.stdout).toContain(`\ncreated_at              ${utc(T0)} (2m ago)\n`);
  });

  it('piped, the table keeps every field as tab-separated columns with UTC dates (stable for scripts)', async () => {
    const r = await piped(['list', '--courier', 'A-BIKE']);
    expect(r.stdout.split('\n')[0]?.split('\t')).toHaveLength(16);
    expect(r.stdout).toContain(`\t${utc(T0)}\t`);
  });

  it('--fields picks exact columns; on a narrow terminal none is left out or cut (names and ids stay whole)', async () => {
    const r = await onTerminal(['list', '--courier', 'A-BIKE', '--fields', 'entry_id,status'], { columns: 16 });
    const widths = [8];
    expect(r).toEqual({
      code: 0,
      stdout: line(['ENTRY_ID', 'STATUS'], widths) + ids.map((id, i) => line([short(id), i === 2 ? 'delivered' : 'registered'], widths)).join(''),
      stderr: '',
    });
  });

  it('--fields naming a field no parcel has: exit 2, unknown field, and the fields the response has', async () => {
    const r = await piped(['list', '--courier', 'A-BIKE', '--fields', 'entry_id,colour']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error: --fields: unknown field "colour"; the response has: entry_id, courier, country, postal_code, number, addition, ' +
        'parcel_length, parcel_width, parcel_height, parcel_weight, time_slot_period_start, time_slot_period_end, ' +
        'service_type, status, created_at, updated_at\n',
    );
    for (const argv of [['get', ids[0] as string], ['list', '--all', '--output', 'ndjson']]) {
      const other = await piped([...argv, '--fields', 'colour']);
      expect(other.code).toBe(2);
      expect(other.stdout).toBe('');
      const message = argv.includes('ndjson') ? JSON.parse(other.stderr).error.message : other.stderr;
      expect(message).toMatch(/^(Error: )?--fields: unknown field "colour"; the response has: entry_id, /);
    }
  });
});

describe('child lists and other resources', () => {
  it('events list: time in the local zone, age, status; the parcel id is not repeated', async () => {
    const id = await createParcel(h, [], { now: () => T0 });
    expect((await h.cli(['events', 'add', id, '--status', 'in_transit', '--at', String(T0 - 60), '-q'], { now: () => T0 })).code).toBe(0);
    const r = await onTerminal(['events', 'list', id]);
    const widths = [compact(T0 - 60).length, 6];
    expect(r).toEqual({
      code: 0,
      stdout: line(['TIME', 'AGE', 'STATUS'], widths) + line([compact(T0 - 60), '3m ago', 'in_transit'], widths),
      stderr: '',
    });
    const wide = await onTerminal(['events', 'list', id, '-o', 'wide']);
    expect(wide.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual(['EVENT_ID', 'STATUS', 'OCCURRED_AT', 'RECORDED_AT']);
    expect(wide.stdout).not.toContain(id);
  });

  it('attempts list: no., time, outcome, reason, delivered address', async () => {
    const id = await createParcel(h, [], { now: () => T0 });
    const add = ['attempts', 'add', id, '--at', String(T0)];
    expect((await h.cli([...add, '--outcome', 'failed', '--reason', 'not_at_home', '-q'], { now: () => T0 })).code).toBe(0);
    const elsewhere = ['--outcome', 'delivered_elsewhere', '--delivered-country', 'NL', '--delivered-postal-code', '1234AB', '--delivered-number', '12'];
    expect((await h.cli([...add, ...elsewhere, '-q'], { now: () => T0 })).code).toBe(0);
    const r = await onTerminal(['attempts', 'list', id]);
    const widths = [3, compact(T0).length, 19, 11];
    expect(r).toEqual({
      code: 0,
      stdout:
        line(['NO.', 'TIME', 'OUTCOME', 'REASON', 'DELIVERED TO'], widths) +
        line(['1', compact(T0), 'failed', 'not_at_home', ''], widths).trimEnd() +
        '\n' +
        line(['2', compact(T0), 'delivered_elsewhere', 'no_reason', '1234AB 12 NL'], widths),
      stderr: '',
    });
  });

  it('usage requests: time, method, route, status', async () => {
    const r = await onTerminal(['usage', 'requests'], { columns: 200 });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^TIME {${compact(T0).length - 2}}METHOD {2}ROUTE +HTTP$`));
    expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^${compact(T0)} {2}(GET |POST|PATCH) +/\\S+ +\\d{3}$`));
  });

  it('a server whose records look different gets the generic view, never a failure', async () => {
    // The reference lists hold {code, name}: no view applies, every field is shown.
    const r = await onTerminal(['couriers']);
    expect(r).toEqual({ code: 0, stdout: 'CODE    NAME\nA-BIKE  A bikes\nA-VAN   A vans\n', stderr: '' });
  });
});

describe('records with several lists', () => {
  it('overview: parcels by status first, each list its own table, then the plain values', async () => {
    const r = await onTerminal(['overview']);
    expect(r.code).toBe(0);
    const headings = r.stdout.split('\n').filter((l, i, all) => i === 0 || all[i - 1] === '');
    expect(headings).toEqual(['parcels.by_status', 'couriers', 'summary']);
    expect(r.stdout).not.toContain('[{');
  });

  it('-o csv and -o ndjson on a record with several lists: exit 2, use --json; nothing printed', async () => {
    for (const format of ['csv', 'ndjson']) {
      for (const argv of [['overview'], ['reference'], ['oracle', 'coverage']]) {
        const message = `--output ${format} prints a list, but this answer is a record holding several lists; use --json (or -o table)`;
        const error = { status: null, code: 'invalid_usage', message, exit_code: 2, field: '--output' };
        expect(await piped([...argv, '-o', format])).toEqual({
          code: 2,
          stdout: '',
          // ndjson's errors are one JSON line on stderr, like every machine format's.
          stderr: format === 'csv' ? `Error: ${message}\n` : `${JSON.stringify({ error })}\n`,
        });
      }
    }
    expect((await piped(['overview', '--json'])).code).toBe(0);
  });
});

describe('-q/--quiet', () => {
  it('lists print only ids, one per line; single records only the id; no success messages', async () => {
    const dir = tempConfigDir();
    const list = await piped(['list', '--courier', 'A-BIKE', '--limit', '3', '-q'], dir);
    expect(list).toEqual({ code: 0, stdout: ids.map((id) => `${id}\n`).join(''), stderr: '' });
    const all = await piped(['list', '--courier', 'A-BIKE', '--all', '--limit', '2', '--max', '3', '-q'], dir);
    expect(all).toEqual({ code: 0, stdout: ids.map((id) => `${id}\n`).join(''), stderr: '' });
    expect(await onTerminal(['get', ids[0] as string, '-q'])).toEqual({ code: 0, stdout: `${ids[0]}\n`, stderr: '' });
    expect(await onTerminal(['patch', ids[0] as string, '--weight', '5', '--refresh', '-q'])).toEqual({ code: 0, stdout: `${ids[0]}\n`, stderr: '' });
    const event = await onTerminal(['events', 'add', ids[1] as string, '--status', 'picked_up', '-q']);
    expect(event.code).toBe(0);
    expect(event.stderr).toBe('');
    const events = await onTerminal(['events', 'list', ids[1] as string, '-q']);
    expect(events).toEqual({ code: 0, stdout: event.stdout, stderr: '' });
    expect(event.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(event.stdout).not.toBe(`${ids[1]}\n`);
    // A record that is not a list and has no id of its own prints nothing.
    expect(await piped(['overview', '-q'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await piped(['couriers', '-q'])).toEqual({ code: 0, stdout: 'A-BIKE\nA-VAN\n', stderr: '' });
  });
});

describe('more pages', () => {
  it('ndjson and csv say so on stderr, and the printed command fetches exactly the next page', async () => {
    for (let i = 0; i < 2; i++) await createParcel(h);
    for (const format of ['ndjson', 'csv']) {
      const first = await piped(['list', '--courier', 'A-BIKE', '--status', 'registered', '--limit', '1', '--output', format]);
      expect(first.code).toBe(0);
      const hint = /^More results: (parcels .*) {2}\(or --all\)\n$/.exec(first.stderr);
      expect(hint, first.stderr).not.toBeNull();
      const command = hint?.[1] as string;
      expect(command).toMatch(new RegExp(`^parcels list --courier A-BIKE --status registered --limit 1 --output ${format} --cursor \\S+$`));
      const second = await runPrinted(command);
      expect(second.code).toBe(0);
      // The same filters and page size carried over: the second page is the second of a two-item page.
      const both = await piped(['list', '--courier', 'A-BIKE', '--status', 'registered', '--limit', '2', '-q']);
      const expected = both.stdout.split('\n')[1] as string;
      expect(expected).toMatch(/^[0-9a-f-]{36}$/);
      if (format === 'ndjson') expect(JSON.parse(second.stdout).entry_id).toBe(expected);
      else expect(second.stdout.split(/\r?\n/)[1]?.startsWith(`${expected},`)).toBe(true);
    }
  });

  it('--max N stops after N items, asking the last page only for what is missing', async () => {
    const r = await piped(['list', '--all', '--limit', '2', '--max', '3', '--output', 'ndjson', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    const requests = r.stderr.split('\n').filter((l) => l.startsWith('> GET '));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(/\?limit=2$/);
    expect(requests[1]).toMatch(/\?limit=1&cursor=/);
    const refused = await piped(['list', '--status', 'registered', '--max', '3', '--fields', 'entry_id']);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --max needs --all (--limit is the size of one page)\n' +
        'Hint: add --all: `parcels list --status registered --max 3 --fields entry_id --all`\n',
    });
    const fixed = await runPrinted(/`(parcels [^`]+)`/.exec(refused.stderr)?.[1] as string);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(fixed.stdout.split('\n')[0]).toBe('entry_id');
  });

  it('list --json is the page with next_cursor; list --all --json is one array', async () => {
    const page = json(await piped(['list', '--limit', '1', '--json']));
    expect(Object.keys(page)).toEqual(['parcels', 'next_cursor']);
    const all = json(await piped(['list', '--all', '--json', '--max', '2']));
    expect(Array.isArray(all)).toBe(true);
    expect(all).toHaveLength(2);
  });
});

describe('id prefixes', () => {
  it('get, events, attempts and patch take a unique prefix of an id shown before', async () => {
    const dir = tempConfigDir();
    expect((await piped(['list', '--courier', 'A-BIKE', '-q'], dir)).code).toBe(0);
    const prefix = (ids[0] as string).slice(0, 8);
    const got = await piped(['get', prefix, '--json'], dir);
    expect(json(got).entry_id).toBe(ids[0]);
    expect((await piped(['events', 'list', prefix, '--json'], dir)).code).toBe(0);
    expect((await piped(['attempts', 'list', prefix, '--json'], dir)).code).toBe(0);
    expect((await piped(['patch', prefix, '--weight', '7', '--json'], dir)).code).toBe(0);
  });

  it('an ambiguous prefix lists the matches (exit 2); an unknown one says how to find ids', async () => {
    const dir = tempConfigDir();
    const twins = ['abcdef12-0000-4000-8000-000000000001', 'abcdef12-0000-4000-8000-000000000002'];
    await openKnownIds({ PARCELS_CONFIG_DIR: dir }, targetId({ baseUrl: h.sandbox.url })).remember(twins);
    expect(await piped(['get', 'abcdef12'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: ID: "abcdef12" matches 2 parcels: ${twins.join(', ')}; give more characters\n`,
    });
    expect(await piped(['get', 'abcdef12-0000-4000-8000-00000000000'], dir)).toMatchObject({ code: 2 });
    expect(await piped(['get', 'ffffffff-f'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: ID: no known parcel id starts with "ffffffff-f"\n' +
        'Hint: give the whole id, or run `parcels list --all --quiet` once: every id it prints can then be abbreviated to 8 or more characters\n',
    });
    // Following the hint: the ids it shows can be abbreviated next.
    const fresh = tempConfigDir();
    const listed = await runPrinted('parcels list', fresh);
    expect(listed.code).toBe(0);
    const first = listed.stdout.split('\n')[1]?.split('\t')[0] as string;
    expect(json(await piped(['get', first.slice(0, 8), '--json'], fresh)).entry_id).toBe(first);
    expect(await piped(['get', 'abc'], dir)).toEqual({ code: 2, stdout: '', stderr: 'Error: ID must be a whole id, or a unique prefix of 8 or more characters (got "abc", 3)\n' });
  });
});

describe('create on a terminal', () => {
  it('the record, then the success line; --quiet only the id', async () => {
    const r = await onTerminal(['create', ...PARCEL_FLAGS]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^✓ Created parcel [0-9a-f-]{36}\n$/);
  });
});
