/**
 * Issue 20, "the outbox": validate first, queue after; a way out for rejected entries; doctor's fix
 * that works; a human flush on a terminal; -q; entries told apart by what they carry. Every hint
 * printed here is run as printed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { hintedCommands } from '../helpers/terminal.js';
import type { Harness, RunOpts } from './harness.js';
import { expectNoSecrets, json, startHarness } from './harness.js';
import { FULL_KEY } from '../helpers/seed.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** The embedded sandbox of a fresh config dir: the target is chosen by --sandbox on each command line. */
async function sandboxed(): Promise<RunOpts> {
  const opts = { dir: tempConfigDir(), env: { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined } };
  // The first use says where the sandbox keeps its data, once.
  expect((await h.cli(['--sandbox', 'outbox'], opts)).stderr).toMatch(/^Using the local sandbox; /);
  return opts;
}

const CREATE = ['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('validate first, queue after', () => {
  it('create --offline with a postcode that is not Dutch for NL: exit 2, nothing queued', async () => {
    const opts = await sandboxed();
    const r = await h.cli(['--sandbox', ...CREATE.slice(0, -3), '12AB', '--number', '10', '--offline'], opts);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --postal-code must be a Dutch postcode (four digits followed by two letters) when country is NL\n',
    });
    expect(await h.cli(['--sandbox', 'outbox'], opts)).toEqual({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });
  });
});

describe('the queued hint keeps the target', () => {
  it('--sandbox: the printed flush sends this outbox, and the parcel exists afterwards', async () => {
    const opts = await sandboxed();
    const queued = await h.cli(['--sandbox', ...CREATE, '--offline'], opts);
    expect(queued).toEqual({ code: 75, stdout: '', stderr: '! queued (1 waiting); `parcels outbox flush --sandbox` sends it\n' });
    const [flush] = hintedCommands(queued.stderr);
    const flushed = await h.cli(flush as string[], opts);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(json(await h.cli(['--sandbox', 'list', '--json'], opts)).parcels).toHaveLength(1);
  });

  it('-p and --base-url: the printed flush names them both', async () => {
    const opts = { dir: tempConfigDir(), env: { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined } };
    const login = await h.cli(['auth', 'login', '-p', 'full', '--base-url', h.sandbox.url, '--with-key-stdin'], { ...opts, stdin: FULL_KEY });
    expect(login.code, login.stderr).toBe(0);
    // Another profile is the default, so the queued entry belongs to -p full only.
    expect((await h.cli(['auth', 'login', '-p', 'other', '--base-url', h.sandbox.url, '--with-key-stdin'], { ...opts, stdin: FULL_KEY })).code).toBe(0);
    expect((await h.cli(['auth', 'switch', 'other'], opts)).code).toBe(0);
    const queued = await h.cli(['events', 'add', MISSING, '--status', 'in_transit', '--offline', '-p', 'full', '--base-url', h.sandbox.url], opts);
    expect(queued).toEqual({ code: 75, stdout: '', stderr: `! queued (1 waiting); \`parcels outbox flush -p full --base-url ${h.sandbox.url}\` sends it\n` });
    // Without the flags, another outbox: empty.
    expect(await h.cli(['outbox'], opts)).toEqual({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });
    const flushed = await h.cli(hintedCommands(queued.stderr)[0] as string[], opts);
    // The service knows no such parcel: rejected, moved aside, exit 4.
    expect(flushed.code).toBe(4);
  });
});

describe('parcels outbox', () => {
  it('shows what each entry carries, so two creates differ; -q prints the entry numbers alone', async () => {
    const opts = await sandboxed();
    await h.cli(['--sandbox', ...CREATE, '--offline'], opts);
    await h.cli(['--sandbox', ...CREATE.slice(0, -3), '1011AB', '--number', '7', '--offline'], opts);
    await h.cli(['--sandbox', 'attempts', 'add', MISSING, '--outcome', 'failed', '--offline'], opts);
    const listed = json(await h.cli(['--sandbox', 'outbox', '--json'], opts)) as Array<Record<string, unknown>>;
    expect(listed.map((e) => [e.seq, e.command, e.what, e.state])).toEqual([
      [1, 'create', 'DEMO-BIKE 1234AB 10', 'waiting'],
      [2, 'create', 'DEMO-BIKE 1011AB 7', 'waiting'],
      [3, 'attempts add', 'outcome failed', 'waiting'],
    ]);
    expect(await h.cli(['--sandbox', 'outbox', '-q'], opts)).toEqual({ code: 0, stdout: '1\n2\n3\n', stderr: '' });
  });

  it('--json: the age in whole seconds as a number, no parcel as null, what each entry carries', async () => {
    const opts = await sandboxed();
    await h.cli(['--sandbox', ...CREATE.slice(0, -3), '1234AB', '--number', '99', '--offline'], opts);
    await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', 'picked_up', '--offline'], opts);
    const listed = json(await h.cli(['--sandbox', 'outbox', '--json'], opts)) as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      { seq: 1, age: expect.any(Number), captured_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), command: 'create', parcel: null, what: 'DEMO-BIKE 1234AB 99', state: 'waiting' },
      { seq: 2, age: expect.any(Number), captured_at: expect.stringMatching(/Z$/), command: 'events add', parcel: MISSING, what: 'status picked_up', state: 'waiting' },
    ]);
    for (const entry of listed) expect(Number.isInteger(entry.age) && (entry.age as number) >= 0).toBe(true);
  });

  it('after a flush, the rejected entry still says what it was', async () => {
    const opts = await sandboxed();
    await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', 'picked_up', '--offline'], opts);
    await h.cli(['--sandbox', 'attempts', 'add', MISSING, '--outcome', 'failed', '--reason', 'not_at_home', '--offline'], opts);
    expect((await h.cli(['--sandbox', 'outbox', 'flush'], opts)).code).toBe(4);
    const listed = json(await h.cli(['--sandbox', 'outbox', '--json'], opts)) as Array<Record<string, unknown>>;
    expect(listed.map((e) => [e.seq, e.command, e.parcel, e.what, e.state])).toEqual([
      [1, 'events add', MISSING, 'status picked_up', 'rejected 404 parcel_not_found'],
      [2, 'attempts add', MISSING, 'outcome failed not_at_home', 'rejected 404 parcel_not_found'],
    ]);
  });
});

describe('a way out for rejected entries, and a doctor fix that works', () => {
  it('a rejected entry: doctor warns with `outbox drop --rejected`, which removes it; then doctor is content', async () => {
    const opts = await sandboxed();
    await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', 'in_transit', '--offline'], opts);
    expect((await h.cli(['--sandbox', 'outbox', 'flush'], opts)).code).toBe(4);
    expect(json(await h.cli(['--sandbox', 'outbox', '--json'], opts))).toMatchObject([{ seq: 1, state: 'rejected 404 parcel_not_found' }]);

    const doctor = await h.cli(['--sandbox', 'doctor', '--json'], opts);
    const check = (JSON.parse(doctor.stdout) as { checks: Array<Record<string, unknown>> }).checks.find((c) => c.check === 'outbox');
    expect(check).toEqual({
      check: 'outbox',
      result: 'warning',
      detail: '1 the service rejected is kept aside',
      fix: 'run `parcels outbox drop --rejected --sandbox` to remove the rejected ones',
    });
    const [drop] = hintedCommands(check?.fix as string);
    expect(await h.cli(drop as string[], opts)).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ Removed #1: events add ${MISSING} status in_transit\n`,
    });
    expect(await h.cli(['--sandbox', 'outbox'], opts)).toEqual({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });
    const again = JSON.parse((await h.cli(['--sandbox', 'doctor', '--json'], opts)).stdout) as { checks: Array<Record<string, unknown>> };
    expect(again.checks.find((c) => c.check === 'outbox')).toEqual({ check: 'outbox', result: 'ok', detail: 'empty' });
  });

  it('outbox drop SEQ removes that entry only; an unknown number removes nothing (exit 2) and its hint lists the entries', async () => {
    const opts = await sandboxed();
    await h.cli(['--sandbox', ...CREATE, '--offline'], opts);
    await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', '1', '--offline'], opts);
    const unknown = await h.cli(['--sandbox', 'outbox', 'drop', '7'], opts);
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: SEQ: no outbox entry 7; nothing was removed\nHint: run `parcels outbox --sandbox` to see the entries and their numbers\n',
    });
    expect((await h.cli(hintedCommands(unknown.stderr)[0] as string[], opts)).code).toBe(0);
    expect(await h.cli(['--sandbox', 'outbox', 'drop', '2'], opts)).toEqual({ code: 0, stdout: '', stderr: `✓ Removed #2: events add ${MISSING} status picked_up\n` });
    expect(await h.cli(['--sandbox', 'outbox', '-q'], opts)).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await h.cli(['--sandbox', 'outbox', 'drop'], opts)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: SEQ: give the numbers of the entries to remove (the seq column of the outbox), or --rejected\nHint: run `parcels outbox --sandbox` to see the entries and their numbers\n',
    });
    expect(await h.cli(['--sandbox', 'outbox', 'drop', '--rejected'], opts)).toEqual({ code: 0, stdout: '', stderr: 'No rejected entries in the outbox; nothing was removed.\n' });
  });
});

describe('outbox flush', () => {
  it('on a terminal: one line per entry and a summary that counts by kind; piped: NDJSON', async () => {
    const opts = await sandboxed();
    const created = await h.cli(['--sandbox', ...CREATE, '--quiet'], opts);
    const id = created.stdout.trim();
    await h.cli(['--sandbox', 'events', 'add', id, '--status', 'in_transit', '--offline'], opts);
    await h.cli(['--sandbox', 'attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--offline'], opts);
    await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', '1', '--offline'], opts);
    const r = await h.cli(['--sandbox', 'outbox', 'flush', '--no-color'], { ...opts, tty: true });
    expect(r.code).toBe(4);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([`✓ #1 events add ${id} status in_transit: sent`, `✓ #2 attempts add ${id} outcome failed not_at_home: sent`]);
    expect(lines[2]).toMatch(new RegExp(`^✗ #3 events add ${MISSING} status picked_up: rejected 404 parcel_not_found: `));
    expect(r.stderr).toMatch(
      /^! Outbox: 3 entries: 2 created \(1 status event, 1 delivery attempt\), 1 failed; 0 still waiting in \d+\.\d s\nHint: `parcels outbox drop --rejected --sandbox` removes what the service rejected\n$/,
    );
    await h.cli(['--sandbox', 'events', 'add', id, '--status', 'in_delivery', '--offline'], opts);
    const piped = await h.cli(['--sandbox', 'outbox', 'flush'], opts);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(`{"line":4,"ok":true,"outcome":"created","entry_id":"${id}"}\n`);
    expect(piped.stderr).toMatch(/^✓ Outbox: 1 entry: 1 created \(1 status event\), 0 failed; 0 still waiting in \d+\.\d s\n$/);
  });
});

describe('--jq does not apply to result lines', () => {
  it('outbox flush --jq and create --from --jq: exit 2 naming --jq, nothing sent, the entry still queued', async () => {
    const opts = await sandboxed();
    expect((await h.cli(['--sandbox', ...CREATE, '--offline'], opts)).code).toBe(75);
    // --jq implies JSON, so the error is the JSON error object on stderr.
    const message = "--jq does not apply to a run's result lines (one JSON object per line): pipe them to jq instead, e.g. | jq -c 'select(.ok | not)'";
    const rule = `${JSON.stringify({ error: { status: null, code: 'invalid_usage', message, exit_code: 2, field: '--jq' } })}\n`;
    expect(await h.cli(['--sandbox', 'outbox', 'flush', '--jq', '.entry_id'], opts)).toEqual({ code: 2, stdout: '', stderr: rule });
    const file = join(tempConfigDir(), 'parcels.ndjson');
    writeFileSync(file, '{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"11"}\n');
    expect(await h.cli(['--sandbox', 'create', '--from', file, '--jq', '.entry_id'], opts)).toEqual({ code: 2, stdout: '', stderr: rule });
    expect(json(await h.cli(['--sandbox', 'list', '--json'], opts)).parcels).toHaveLength(0);
    expect(JSON.parse((await h.cli(['--sandbox', 'outbox', '--json'], opts)).stdout)).toHaveLength(1);
  });
});
