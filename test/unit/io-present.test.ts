/**
 * The presenter: every result kind in every output format (and --jq, --quiet), byte for byte, from
 * a context that only says what the user chose. Commands hand results over and never choose.
 * The timeline kind: io-present-timeline.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { presentList, presentRecord, presentRecordRows, presentWritten } from '../../src/io/present.js';
import { presentBodies, presentBody, presentErrorBody } from '../../src/io/present/raw.js';
import { presentPage, presentResource, presentStream } from '../../src/io/present/resource.js';
import { runLines } from '../../src/io/present/run.js';
import type { Ctx } from '../helpers/present.js';
import { NOW, PARCEL, PARCEL_CSV, PARCEL_KV, PARCEL_TSV, context, csv, expectEach, jq, json, line, ndjson, piped, pretty, quiet, terminal, wide } from '../helpers/present.js';

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
      [terminal, { stdout: 'ENTRY_ID  STATUS       RECIPIENT_NAME\np-1       in_transit   Ann\np-2       in_delivery  -\n' }],
      [json, { stdout: `[\n${JSON.stringify(items[0])},\n${JSON.stringify(items[1])}\n]\n` }],
      [ndjson, { stdout: line(items[0]) + line(items[1]) }],
      [csv, { stdout: 'entry_id,status,recipient_name\np-1,2,Ann\np-2,3,\n' }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
  });

  it('an endless list (a followed log) prints JSON as lines; rows a program reads take their own columns', async () => {
    await expectEach((ctx) => presentList(ctx, items, { now: NOW, endless: true, rowFields: ['entry_id'] }), [
      [piped, { stdout: 'entry_id\np-1\np-2\n' }],
      [terminal, { stdout: 'ENTRY_ID  STATUS       RECIPIENT_NAME\np-1       in_transit   Ann\np-2       in_delivery  -\n' }],
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
      [piped, { stdout: 'entry_id\tstatus\trecipient_name\np-1\t2 in_transit\tAnn\n', stderr: more }],
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
