/**
 * The presenter: every result kind in every output format (and --jq, --quiet), byte for byte, from
 * a context that only says what the user chose. Commands hand results over and never choose.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compileJq } from '../../src/io/jq.js';
import type { OutputFormat } from '../../src/io/output-format.js';
import { presentList, presentRecord, presentRecordRows, presentWritten } from '../../src/io/present.js';
import { assertPresentable } from '../../src/io/present/kinds.js';
import { presentBodies, presentBody, presentErrorBody } from '../../src/io/present/raw.js';
import { presentPage, presentResource, presentStream } from '../../src/io/present/resource.js';
import { runLines } from '../../src/io/present/run.js';
import { TIMELINE, TIMELINE_WATCH, TimelinePresenter } from '../../src/io/present/timeline.js';
import { WatchUpdates, statesOf, timelineOf } from '../../src/track/results.js';
import { buildTimeline } from '../../src/track/timeline.js';
import type { Snapshot } from '../../src/track/watch.js';
import { captureIO } from '../helpers/io.js';

/** 2020-01-01T10:00:00Z, and the service's clock a day later. */
const T = 1_577_872_800;
const NOW = T + 86_400;

interface Choice {
  format: OutputFormat;
  jq?: string;
  quiet?: boolean;
  fields?: string;
  tty?: boolean;
}

/** A context as a command gets it, saying only what the user chose; stdout, stderr and the ids remembered are recorded. */
async function context(choice: Choice) {
  const c = captureIO({ tty: choice.tty, columns: 120 });
  const filter = choice.jq === undefined ? undefined : await compileJq(choice.jq);
  const remembered: string[] = [];
  const ctx = {
    io: c.io,
    globals: { quiet: choice.quiet, fields: choice.fields },
    commandLine: { words: ['list', '--status', 'in_transit'], flags: [{ long: '--status', takesValue: true }] },
    outputFormat: (): OutputFormat => (filter === undefined ? choice.format : 'json'),
    jq: async () => filter,
    fields: () => choice.fields?.split(','),
    serviceNow: async () => NOW,
    codeNames: async () => ({}),
    knownIds: async () => ({ max: 1000, remember: async (ids: readonly string[]) => void remembered.push(...ids) }),
    settings: async () => ({}),
  };
  return { ctx, out: () => ({ stdout: c.stdout(), stderr: c.stderr() }), remembered };
}

const PARCEL = { entry_id: 'p-1', status: 2, recipient_name: 'Ann' };
const EVENT = { occurred_at: T, status: 2 };
const ATTEMPT = { time_attempt: T + 3600, outcome: 1, reason: 1, attempt_no: 1 };
const SNAPSHOT: Snapshot = { parcel: PARCEL, timeline: buildTimeline([EVENT], [ATTEMPT]) };
const OTHER: Snapshot = { parcel: { entry_id: 'p-2' }, timeline: [] };
const EVENT_JSON = { kind: 'event', at: T, ...EVENT };
const ATTEMPT_JSON = { kind: 'attempt', at: T + 3600, ...ATTEMPT };

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

type Ctx = Awaited<ReturnType<typeof context>>['ctx'];
interface Printed {
  stdout: string;
  stderr?: string;
  /** The usage error raised, as `--flag: message`. */
  error?: string;
}

/** What the kind prints for this choice (stderr '' unless given), or the usage error it raises. */
async function printed(choice: Choice, present: (ctx: Ctx) => Promise<unknown>): Promise<Printed> {
  const c = await context(choice);
  try {
    await present(c.ctx);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ...c.out(), error: `${error.field}: ${error.message}` };
  }
  return c.out();
}

const piped: Choice = { format: 'table' };
const terminal: Choice = { format: 'table', tty: true };
const wide: Choice = { format: 'wide' };
const json: Choice = { format: 'json' };
const ndjson: Choice = { format: 'ndjson' };
const csv: Choice = { format: 'csv' };
const jq: Choice = { format: 'table', jq: '.entry_id' };
const quiet: Choice = { format: 'table', quiet: true };

/** Each choice with what it prints. */
async function expectEach(present: (ctx: Ctx) => Promise<unknown>, cases: [Choice, Printed][]): Promise<void> {
  for (const [choice, expected] of cases) {
    expect({ choice, ...(await printed(choice, present)) }).toEqual({ choice, stderr: '', ...expected });
  }
}

const PARCEL_TSV = 'entry_id\tp-1\nstatus\t2 in_transit\nrecipient_name\tAnn\n';
const PARCEL_KV = 'entry_id        p-1\nstatus          2 in_transit\nrecipient_name  Ann\n';
const PARCEL_CSV = 'entry_id,status,recipient_name\np-1,2,Ann\n';

describe('a record', () => {
  it('key/value for people, the record for scripts, its value through --jq', async () => {
    await expectEach((ctx) => presentRecord(ctx, PARCEL, { now: NOW }), [
      [piped, { stdout: PARCEL_TSV }],
      [terminal, { stdout: PARCEL_KV }],
      [wide, { stdout: PARCEL_TSV }],
      [json, { stdout: pretty(PARCEL) }],
      [ndjson, { stdout: line(PARCEL) }],
      [csv, { stdout: PARCEL_CSV }],
      [jq, { stdout: 'p-1\n' }],
    ]);
  });

  it("a write's success line is for people only", async () => {
    await expectEach((ctx) => presentWritten(ctx, 'Created parcel p-1'), [
      [piped, { stdout: '', stderr: '✓ Created parcel p-1\n' }],
      [json, { stdout: '' }],
      [csv, { stdout: '' }],
      [quiet, { stdout: '' }],
    ]);
  });
});

describe('a list', () => {
  const items = [PARCEL, { entry_id: 'p-2', status: 3 }];
  it('rows for people and csv, an array or lines for scripts, each item through --jq', async () => {
    await expectEach((ctx) => presentList(ctx, items, { now: NOW }), [
      [piped, { stdout: 'entry_id\tstatus\trecipient_name\np-1\t2 in_transit\tAnn\np-2\t3 in_delivery\t\n' }],
      [terminal, { stdout: 'ENTRY_ID  STATUS         RECIPIENT_NAME\np-1       2 in_transit   Ann\np-2       3 in_delivery  -\n' }],
      [json, { stdout: `[\n${JSON.stringify(items[0])},\n${JSON.stringify(items[1])}\n]\n` }],
      [ndjson, { stdout: line(items[0]) + line(items[1]) }],
      [csv, { stdout: 'entry_id,status,recipient_name\np-1,2,Ann\np-2,3,\n' }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
  });

  it('an endless list (a followed log) prints JSON as lines; rows a program reads take their own columns', async () => {
    await expectEach((ctx) => presentList(ctx, items, { now: NOW, endless: true, rowFields: ['entry_id'] }), [
      [piped, { stdout: 'entry_id\np-1\np-2\n' }],
      [terminal, { stdout: 'ENTRY_ID  STATUS         RECIPIENT_NAME\np-1       2 in_transit   Ann\np-2       3 in_delivery  -\n' }],
      [json, { stdout: line(items[0]) + line(items[1]) }],
      [csv, { stdout: 'entry_id\np-1\np-2\n' }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
  });

  it('a record and its rows: the record whole for JSON, else its line on stderr over the rows', async () => {
    const run = { run: 1, steps: [{ step: 0 }] };
    await expectEach((ctx) => presentRecordRows(ctx, run, { line: 'Parcel p-1: run 1', rows: [{ step: 0, applied: true }], fields: undefined, now: NOW }), [
      [piped, { stdout: 'step\tapplied\n0\tyes\n', stderr: 'Parcel p-1: run 1\n' }],
      [json, { stdout: pretty(run) }],
      [ndjson, { stdout: line({ step: 0, applied: true }), stderr: 'Parcel p-1: run 1\n' }],
      [csv, { stdout: 'step,applied\n0,true\n', stderr: 'Parcel p-1: run 1\n' }],
      [{ format: 'table', jq: '.run' }, { stdout: '1\n' }],
    ]);
  });
});

describe("the service's resources", () => {
  it('a parcel: as a record, its id with --quiet, and its id remembered for prefixes', async () => {
    await expectEach((ctx) => presentResource(ctx, PARCEL, { view: 'parcels' }), [
      [piped, { stdout: PARCEL_TSV }],
      [json, { stdout: pretty(PARCEL) }],
      [csv, { stdout: PARCEL_CSV }],
      [jq, { stdout: 'p-1\n' }],
      [quiet, { stdout: 'p-1\n' }],
    ]);
    const c = await context(json);
    await presentResource(c.ctx, PARCEL, { view: 'parcels' });
    expect(c.remembered).toEqual(['p-1']);
  });

  it('a page: JSON keeps it whole, the rest print its items with the next-page command on stderr', async () => {
    const page = { parcels: [PARCEL], next_cursor: 'c2' };
    const more = 'More results: parcels list --status in_transit --cursor c2  (or --all)\n';
    await expectEach((ctx) => presentPage(ctx, { data: page, items: page.parcels, nextCursor: 'c2' }, 'No parcels found.', { view: 'parcels' }), [
      [piped, { stdout: 'entry_id\tstatus\trecipient_name\np-1\t2 in_transit\tAnn\n' }],
      [terminal, { stdout: 'ID   STATUS\np-1  in_transit\n', stderr: more }],
      [json, { stdout: pretty(page) }],
      [ndjson, { stdout: line(PARCEL), stderr: more }],
      [csv, { stdout: PARCEL_CSV, stderr: more }],
      [jq, { stdout: 'null\n' }],
      [{ format: 'table', jq: '.next_cursor' }, { stdout: 'c2\n' }],
      [quiet, { stdout: 'p-1\n' }],
    ]);
  });

  it('a stream (--all): as a list, ids with --quiet, the newest parcel ids remembered', async () => {
    async function* parcels() {
      yield PARCEL;
      yield { entry_id: 'p-2', status: 3 };
    }
    await expectEach((ctx) => presentStream(ctx, parcels(), 'No parcels found.', { view: 'parcels' }), [
      [ndjson, { stdout: line(PARCEL) + line({ entry_id: 'p-2', status: 3 }) }],
      [jq, { stdout: 'p-1\np-2\n' }],
      [quiet, { stdout: 'p-1\np-2\n' }],
    ]);
    const c = await context(quiet);
    await presentStream(c.ctx, parcels(), 'No parcels found.', { view: 'parcels' });
    expect(c.remembered).toEqual(['p-1', 'p-2']);
  });
});

describe('a timeline', () => {
  const TIMELINE_TSV = 'time\tage\tentry\tstate\treason\tdelivered\n2020-01-01T10:00:00Z\t1d ago\tevent\t2 in_transit\t\t\n2020-01-01T11:00:00Z\t23h ago\tattempt 1\t1 failed\t1 not_at_home\t\n';
  const record = { parcel: PARCEL, timeline: [EVENT_JSON, ATTEMPT_JSON] };

  it('one parcel: drawn for people (wide too), { parcel, timeline } for scripts, its entries as csv rows', async () => {
    await expectEach((ctx) => new TimelinePresenter(ctx).show(timelineOf(SNAPSHOT)), [
      [piped, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}` }],
      [
        terminal,
        {
          stdout:
            `${PARCEL_KV}\nTimeline\n` +
            'TIME                  AGE      ENTRY      STATE         REASON         DELIVERED\n' +
            '2020-01-01T10:00:00Z  1d ago   event      2 in_transit\n' +
            '2020-01-01T11:00:00Z  23h ago  attempt 1  1 failed      1 not_at_home\n',
        },
      ],
      [wide, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}` }],
      [json, { stdout: pretty(record) }],
      // The record kind's rule: one NDJSON line would blur its lists.
      [ndjson, { stdout: '', error: '--output: --output ndjson prints a list, but this answer is a record holding several lists; use --json (or -o table)' }],
      [csv, { stdout: 'status,kind,at,occurred_at,time_attempt,outcome,reason,attempt_no\n2,event,1577872800,1577872800,,,,\n,attempt,1577876400,,1577876400,1,1,1\n' }],
      [{ format: 'table', jq: '.timeline[].kind' }, { stdout: 'event\nattempt\n' }],
    ]);
  });

  it('several parcels: a state row each for people and csv, a JSON line each for scripts', async () => {
    const states = [
      { entry_id: 'p-1', parcel: PARCEL, latest: ATTEMPT_JSON, delivered: false },
      { entry_id: 'p-2', parcel: OTHER.parcel, latest: null, delivered: false },
    ];
    await expectEach((ctx) => new TimelinePresenter(ctx).show(statesOf(['p-1', 'p-2'], [SNAPSHOT, OTHER])), [
      [piped, { stdout: 'entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\np-1\t2 in_transit\t2020-01-01T11:00:00Z\tattempt 1: 1 failed (1 not_at_home)\t\tno\np-2\t\t\t\t\tno\n' }],
      [terminal, { stdout: 'ID   STATUS      LATEST                               AGE      DELIVERED\np-1  in_transit  attempt 1: 1 failed (1 not_at_home)  23h ago  no\np-2  -           -                                             no\n' }],
      [json, { stdout: line(states[0]) + line(states[1]) }],
      [ndjson, { stdout: line(states[0]) + line(states[1]) }],
      [csv, { stdout: 'entry_id,status,latest_at,latest,delivered_to,delivered\np-1,2,1577876400,attempt 1: 1 failed (1 not_at_home),,false\np-2,,,,,false\n' }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
  });

  it("a watch: the first read and each update drawn for people, then how it ended; one JSON line per entry for scripts", async () => {
    const watched = async (ctx: Ctx): Promise<void> => {
      const out = new TimelinePresenter(ctx);
      const updates = new WatchUpdates(false);
      await out.update(updates.first(new Map([['p-1', { ...SNAPSHOT, timeline: SNAPSHOT.timeline.slice(0, 1) }]])));
      await out.update(updates.fresh([{ id: 'p-1', entries: SNAPSHOT.timeline.slice(1) }]));
      await out.end('delivered; stopped watching');
    };
    const lines = line({ entry_id: 'p-1', ...EVENT_JSON }) + line({ entry_id: 'p-1', ...ATTEMPT_JSON });
    await expectEach(watched, [
      [piped, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}`, stderr: 'delivered; stopped watching\n' }],
      [
        terminal,
        {
          // Room is left for the rows to come.
          stdout:
            `${PARCEL_KV}\nTimeline\n` +
            'TIME                  AGE       ENTRY       STATE                  REASON               DELIVERED\n' +
            '2020-01-01T10:00:00Z  1d ago    event       2 in_transit\n' +
            '2020-01-01T11:00:00Z  23h ago   attempt 1   1 failed               1 not_at_home\n',
          stderr: 'delivered; stopped watching\n',
        },
      ],
      [json, { stdout: lines }],
      [ndjson, { stdout: lines }],
      [{ format: 'table', jq: '.kind' }, { stdout: 'event\nattempt\n' }],
    ]);
  });

  it('declares what it cannot print: csv for a watch, --fields for either; exit 2 naming the flag', async () => {
    const check = (kind: typeof TIMELINE) => (ctx: Ctx) => assertPresentable(ctx, kind);
    const noFields = '--fields: --fields does not apply to track; use --json for the parcel and its timeline, or --jq to pick values';
    await expectEach(check(TIMELINE_WATCH), [
      [csv, { stdout: '', error: '--output: --watch prints a table or NDJSON lines, not csv' }],
      [{ format: 'json', fields: 'status' }, { stdout: '', error: noFields }],
      [json, { stdout: '' }],
      [piped, { stdout: '' }],
    ]);
    await expectEach(check(TIMELINE), [
      [csv, { stdout: '' }],
      [{ format: 'table', fields: 'status' }, { stdout: '', error: noFields }],
    ]);
  });
});

describe('a raw body (parcels api)', () => {
  it('JSON whatever the format (one line with ndjson), through --jq; an error body as sent', async () => {
    const body = { entry_id: 'p-1', a: 1 };
    await expectEach((ctx) => presentBody(ctx, body, NOW), [
      [piped, { stdout: pretty(body) }],
      [csv, { stdout: pretty(body) }],
      [ndjson, { stdout: line(body) }],
      [jq, { stdout: 'p-1\n' }],
    ]);
    await expectEach((ctx) => presentBodies(ctx, [body, { entry_id: 'p-2' }], NOW), [
      [piped, { stdout: line(body) + line({ entry_id: 'p-2' }) }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
    const error = { error: { code: 'parcel_not_found' } };
    await expectEach((ctx) => presentErrorBody(ctx, error, NOW), [
      [piped, { stdout: pretty(error) }],
      [ndjson, { stdout: line(error) }],
      [jq, { stdout: pretty(error) }],
    ]);
  });
});

describe("a run's lines (outbox flush)", () => {
  it('a sentence each for a person at a terminal, JSON lines otherwise, the ids of successes with --quiet', async () => {
    const lines = async (ctx: Ctx): Promise<void> => {
      const show = runLines(ctx);
      await show({ json: '{"line":1,"ok":true,"entry_id":"p-1"}', text: () => '✓ #1 create: sent, parcel p-1', quietId: 'p-1' });
      await show({ json: '{"line":2,"ok":false}', text: () => '✗ #2 create: rejected 422', quietId: undefined });
    };
    const json2 = '{"line":1,"ok":true,"entry_id":"p-1"}\n{"line":2,"ok":false}\n';
    await expectEach(lines, [
      [terminal, { stdout: '✓ #1 create: sent, parcel p-1\n✗ #2 create: rejected 422\n' }],
      [piped, { stdout: json2 }],
      [{ format: 'json', tty: true }, { stdout: json2 }],
      [csv, { stdout: json2 }],
      [quiet, { stdout: 'p-1\n' }],
    ]);
  });
});
