/**
 * Smoke checks with `parcels` alone (issue 31): `--jq-exit-status` fails a step on the filter's
 * last result, `--envelope` tells a create from the service's replay and carries the ETag, and
 * `doctor --wait` refuses what it cannot wait for. In-process, against the sandbox over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { PARCEL_FLAGS, allParcels, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** The error line a JSON run prints on stderr for a false --jq result. */
function jqFalse(message: string): string {
  return `${JSON.stringify({ error: { status: null, code: 'jq_false', message, exit_code: 12 } })}\n`;
}

describe('--jq-exit-status', () => {
  it('a false result prints as always and exits 12, saying why on stderr; true exits 0', async () => {
    const id = await createParcel(h);
    const failed = await h.cli(['get', id, '--jq', '.status == 3', '--jq-exit-status']);
    expect(failed).toEqual({ code: 12, stdout: 'false\n', stderr: jqFalse("--jq-exit-status: the filter's last result was false (.status == 3)") });
    expect(await h.cli(['get', id, '--jq', '.status == 0', '--jq-exit-status'])).toEqual({ code: 0, stdout: 'true\n', stderr: '' });
  });

  it('without it, a false result still exits 0 (the default is unchanged)', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['get', id, '--jq', '.status == 3'])).toEqual({ code: 0, stdout: 'false\n', stderr: '' });
  });

  it('null and no result at all fail too; the string "null" (printed raw) and 0 do not, as with jq -e', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['get', id, '--jq', '.parcel_weight', '--jq-exit-status'])).toEqual({
      code: 12,
      stdout: 'null\n',
      stderr: jqFalse("--jq-exit-status: the filter's last result was null (.parcel_weight)"),
    });
    expect(await h.cli(['get', id, '--jq', 'select(.status == 3)', '--jq-exit-status'])).toEqual({
      code: 12,
      stdout: '',
      stderr: jqFalse('--jq-exit-status: the filter gave no result (select(.status == 3))'),
    });
    expect(await h.cli(['get', id, '--jq', '"null"', '--jq-exit-status'])).toEqual({ code: 0, stdout: 'null\n', stderr: '' });
    expect(await h.cli(['get', id, '--jq', '.status', '--jq-exit-status'])).toEqual({ code: 0, stdout: '0\n', stderr: '' });
  });

  it('on a streamed list (--all, pages of 1) the last result of the whole stream decides', async () => {
    await createParcel(h);
    await createParcel(h);
    const ids = (await allParcels(h)).map((p) => p.entry_id as string);
    const first = ids[0] as string;
    const last = ids.at(-1) as string;
    const isFirst = await h.cli(['list', '--all', '--limit', '1', '--jq', `.entry_id == "${first}"`, '--jq-exit-status']);
    expect(isFirst).toEqual({ code: 12, stdout: ids.map((id) => `${id === first}\n`).join(''), stderr: jqFalse(`--jq-exit-status: the filter's last result was false (.entry_id == "${first}")`) });
    const isLast = await h.cli(['list', '--all', '--limit', '1', '--jq', `.entry_id == "${last}"`, '--jq-exit-status']);
    expect(isLast).toEqual({ code: 0, stdout: ids.map((id) => `${id === last}\n`).join(''), stderr: '' });
  });

  it('an error of the filter keeps its own code (2), and the flag needs --jq and refuses --quiet (exit 2, nothing sent)', async () => {
    const id = await createParcel(h);
    const broken = await h.cli(['get', id, '--jq', '.[0]', '--jq-exit-status']);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe('');
    expect(JSON.parse(broken.stderr)).toMatchObject({ error: { code: 'invalid_usage', exit_code: 2 } });
    expect(await h.cli(['get', id, '--jq-exit-status'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --jq-exit-status sets the exit status from the last result of --jq: give --jq EXPR too\n',
    });
    const before = (await allParcels(h)).length;
    expect(await h.cli(['create', ...PARCEL_FLAGS, '--jq', '.entry_id', '--jq-exit-status', '--quiet'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `${JSON.stringify({ error: { status: null, code: 'invalid_usage', message: '--jq-exit-status reads the results of --jq, which --quiet replaces with ids: leave out --quiet', exit_code: 2, field: '--jq-exit-status' } })}\n`,
    });
    expect((await allParcels(h)).length).toBe(before);
  });
});

/** The ETag the service gives the parcel now, read over HTTP with the key (not through the CLI). */
async function serviceEtag(id: string): Promise<string | null> {
  const response = await fetch(`${h.sandbox.url}/deliveries/v1/parcels/${id}`, { headers: { authorization: `Bearer ${FULL_KEY}` } });
  await response.body?.cancel();
  return response.headers.get('etag');
}

describe('--envelope', () => {
  it('create: {data, outcome: "created", etag}; the same command again is "replayed" with the same data and ETag', async () => {
    const argv = ['create', ...PARCEL_FLAGS, '--idempotency-key', 'smoke-envelope-0001', '--envelope'];
    const created = await h.cli(argv);
    expect(created.stderr).toBe('');
    const first = json(created);
    expect(Object.keys(first)).toEqual(['data', 'outcome', 'etag']);
    expect(first.outcome).toBe('created');
    const id = first.data.entry_id as string;
    expect(first.etag).toBe(await serviceEtag(id));
    expect(first.data).toEqual(json(await h.cli(['get', id, '--json'])));
    const replayed = await h.cli(argv);
    expect(replayed.stderr).toBe('');
    expect(json(replayed)).toEqual({ ...first, outcome: 'replayed' });
  });

  it('the default --json stays the service data alone: a create and its replay print the same bytes', async () => {
    const argv = ['create', ...PARCEL_FLAGS, '--idempotency-key', 'smoke-envelope-0002', '--json'];
    const created = await h.cli(argv);
    const replayed = await h.cli(argv);
    expect(replayed).toEqual(created);
    expect(Object.keys(json(created))).not.toContain('outcome');
    expect(json(created)).not.toHaveProperty('etag');
  });

  it('--jq runs over the whole envelope; --output ndjson prints it as one line', async () => {
    const argv = ['create', ...PARCEL_FLAGS, '--idempotency-key', 'smoke-envelope-0003', '--envelope'];
    expect(await h.cli([...argv, '--jq', '.outcome'])).toEqual({ code: 0, stdout: 'created\n', stderr: '' });
    const again = await h.cli([...argv, '--jq', '.outcome == "created"', '--jq-exit-status']);
    expect(again).toEqual({ code: 12, stdout: 'false\n', stderr: jqFalse('--jq-exit-status: the filter\'s last result was false (.outcome == "created")') });
    const line = await h.cli([...argv, '--output', 'ndjson']);
    expect(line.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(line.stdout)).toMatchObject({ outcome: 'replayed' });
  });

  it('events add and attempts add: created, then replayed; their answers carry no ETag (null)', async () => {
    const id = await createParcel(h);
    // One observation time for both sends: "now" would change the body, which the service refuses (409) under the same key.
    const at = String(Math.floor(Date.now() / 1000) - 60);
    const event = ['events', 'add', id, '--status', 'picked_up', '--at', at, '--idempotency-key', 'smoke-event-0001', '--envelope'];
    const sent = json(await h.cli(event));
    expect([sent.outcome, sent.etag, sent.data.entry_id, sent.data.status]).toEqual(['created', null, id, 1]);
    expect(json(await h.cli(event))).toEqual({ ...sent, outcome: 'replayed' });
    const attempt = ['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--at', at, '--idempotency-key', 'smoke-attempt-0001', '--envelope'];
    const tried = json(await h.cli(attempt));
    expect([tried.outcome, tried.etag, tried.data.entry_id]).toEqual(['created', null, id]);
    expect(json(await h.cli(attempt))).toEqual({ ...tried, outcome: 'replayed' });
  });

  it('is refused with a form it is not (--quiet, --fields, --output table, --from, --offline): exit 2, nothing sent', async () => {
    const before = (await allParcels(h)).length;
    const refused = async (extra: string[], stderr: string): Promise<void> => {
      expect(await h.cli(['create', ...PARCEL_FLAGS, '--envelope', ...extra])).toEqual({ code: 2, stdout: '', stderr });
    };
    await refused(['--quiet'], 'Error: --envelope prints {data, outcome, etag}, which --quiet replaces with the id: leave out one of them\n');
    await refused(['--fields', 'entry_id'], 'Error: --fields does not apply to --envelope: pick values with --jq, e.g. --jq .data.entry_id\n');
    await refused(['--output', 'table'], 'Error: --envelope prints JSON and cannot be used with --output table\n');
    await refused(['--from', 'parcels.csv'], 'Error: --envelope and --from cannot be used together\n');
    await refused(['--offline'], 'Error: --envelope and --offline cannot be used together\n');
    expect((await allParcels(h)).length).toBe(before);
  });
});

describe('doctor --wait', () => {
  it('takes a duration of at most 1h, by the duration parser: anything else is exit 2 before any request', async () => {
    expect(await h.cli(['doctor', '--wait', '30'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --wait must be a duration such as 30s, 2m or 1m30s (got "30")\n' });
    expect(await h.cli(['doctor', '--wait', '2h'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --wait must be at most 1h (got "2h")\n' });
  });

  it('against a service that answers, it does not wait: the report is the same as without it', async () => {
    const r = await h.cli(['doctor', '--wait', '1m', '--jq', '[.ok, .exit_code, .checks[1].check, .checks[1].result]']);
    expect(r).toEqual({ code: 0, stdout: '[true,0,"host","ok"]\n', stderr: '' });
  });
});
