import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { shouldColour } from '../../src/io/streams.js';
import type { CliResult } from '../helpers/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';
import { FULL_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { ESC, PARCEL_FLAGS, allParcels, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** Runs with an IO whose colour is decided as the real process decides it (TTY, NO_COLOR, --no-color). */
async function runWithTerminal(argv: string[], env: NodeJS.ProcessEnv, tty: boolean): Promise<CliResult> {
  const noColor = argv.includes('--no-color');
  const colour = shouldColour({ isTTY: tty, env, noColor });
  const captured = captureIO({ env, tty, colour });
  captured.io.stderrColour = colour;
  const code = await run(argv, { io: captured.io, env });
  return h.record({ code, stdout: captured.stdout(), stderr: captured.stderr() });
}

describe('--dry-run', () => {
  it('create prints the request and a curl line, sends nothing, and never the key', async () => {
    const before = (await allParcels(h)).length;
    const key = 'dry-run-key-0001';
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key, '--dry-run']);
    expect(r.code).toBe(0);
    const ua = /^User-Agent: (.+)$/m.exec(r.stdout)?.[1] as string;
    expect(ua).toMatch(/^parcels-cli\//);
    expect(r.stdout).not.toContain(FULL_KEY);
    expect(r.stderr).not.toContain(FULL_KEY);
    expect((await allParcels(h)).length).toBe(before);
    // Exactly the one request the command would send: no other request (e.g. the reference lookup
    // for table names) may appear in a dry run.
    const url = `${h.sandbox.url}/deliveries/v1/parcels`;
    const body = '{"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"10"}';
    expect(r.stdout).toBe(
      `POST ${url}\n` +
        'Accept: application/json\n' +
        'Authorization: Bearer ***REDACTED***\n' +
        'Content-Type: application/json\n' +
        `Idempotency-Key: ${key}\n` +
        `User-Agent: ${ua}\n` +
        '\n' +
        `${body}\n` +
        '\n' +
        '# the key is read from PARCELS_API_KEY, as this command read it\n' +
        `printf 'Authorization: Bearer %s\\n' "$PARCELS_API_KEY" | curl -sS -X POST ${url} -H 'Accept: application/json' -H @- -H 'Content-Type: application/json' -H 'Idempotency-Key: ${key}' --data-binary '${body}'\n`,
    );
  });

  it("a profile's key: the curl line reads it with that profile's `auth token` as it runs, exporting nothing; the key never shows", async () => {
    const dir = tempConfigDir();
    const noEnv = { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined };
    expect((await h.cli(['auth', 'login', '-p', 'ops', '--base-url', h.sandbox.url, '--with-key-stdin', '--no-verify'], { dir, env: noEnv, stdin: FULL_KEY })).code).toBe(0);
    const r = await h.cli(['couriers', '-p', 'ops', '--dry-run'], { dir, env: noEnv });
    expect(r.code, r.stderr).toBe(0);
    const url = `${h.sandbox.url}/account/v1/couriers`;
    expect(r.stdout.split('\n').slice(-3)).toEqual([
      "# `parcels auth token -p ops` hands over the profile's key as the line runs: no variable is set",
      `printf 'Authorization: Bearer %s\\n' "$(parcels auth token -p ops)" | curl -sS ${url} -H 'Accept: application/json' -H @-`,
      '',
    ]);
    expect(r.stdout).not.toContain('export');
    expect(r.stdout + r.stderr).not.toContain(FULL_KEY);
    // The command it names prints that profile's key when captured (as $(…) captures it).
    // (Run outside the harness's record: the key on its stdout is the point here.)
    const token = await runCli(['auth', 'token', '-p', 'ops'], { env: h.env({ PARCELS_CONFIG_DIR: dir, ...noEnv }) });
    expect(token).toEqual({ code: 0, stdout: `${FULL_KEY}\n`, stderr: '' });
  });

  it('a time in the body is shown readable beside its number; --dry-run --json gives the body as JSON, not a string', async () => {
    const id = await createParcel(h);
    const at = '2026-11-27T09:00:00Z';
    const seconds = Date.parse(at) / 1000;
    const r = await h.cli(['events', 'add', id, '--status', 'picked_up', '--at', at, '--dry-run', '--idempotency-key', 'dry-run-time-0001']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`\n\n{"status":1,"occurred_at":${seconds}}\n# occurred_at ${seconds} = ${at}\n\n`);
    const j = await h.cli(['events', 'add', id, '--status', 'picked_up', '--at', at, '--dry-run', '--json', '--idempotency-key', 'dry-run-time-0001']);
    expect(j.code, j.stderr).toBe(0);
    expect((JSON.parse(j.stdout) as { body: unknown }[])[0]?.body).toEqual({ status: 1, occurred_at: seconds });
  });

  it('create does not claim on stderr that a parcel was created', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Created parcel');
  });

  it('a dry run does not spoil the cached code names (status 4 keeps its name afterwards)', async () => {
    const dir = tempConfigDir();
    expect((await h.cli(['create', ...PARCEL_FLAGS, '--dry-run'], { dir })).code).toBe(0);
    const id = await createParcel(h);
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered', '--json'])).code).toBe(0);
    const g = await h.cli(['get', id], { dir });
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/^status\t4 delivered$/m);
  });

  it('get prints a GET with the redacted header', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['get', id, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`GET ${h.sandbox.url}/deliveries/v1/parcels/${id}`);
    expect(r.stdout).toContain('Authorization: Bearer ***REDACTED***\n');
    expect(r.stdout).toContain(`printf 'Authorization: Bearer %s\\n' "$PARCELS_API_KEY" | curl -sS ${h.sandbox.url}/deliveries/v1/parcels/${id} -H 'Accept: application/json' -H @-\n`);
    expect(r.stdout.match(/ curl /gm)).toHaveLength(1);
    expect(r.stdout).not.toContain(FULL_KEY);
  });

  it('patch with a cached ETag shows If-Match and changes nothing', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    const g = await h.cli(['get', id, '--verbose'], { dir });
    const etag = /^< etag: (".*")$/m.exec(g.stderr)?.[1] as string;
    const r = await h.cli(['patch', id, '--weight', '5', '--dry-run'], { dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`PATCH ${h.sandbox.url}/deliveries/v1/parcels/${id}`);
    expect(r.stdout).toContain(`If-Match: ${etag}\n`);
    expect(r.stdout).toContain('{"parcel_weight":5}');
    expect(json(await h.cli(['get', id, '--json'])).parcel_weight).toBeNull();
    // the dry run changed nothing, so the cached ETag is still good for a real patch
    const real = await h.cli(['patch', id, '--weight', '6', '--json'], { dir });
    expect(real.code, real.stderr).toBe(0);
    expect(json(real).parcel_weight).toBe(6);
  });
});

describe('-o csv', () => {
  it('times as ISO 8601 UTC (a spreadsheet reads them as times); --jq @csv keeps the Unix seconds', async () => {
    const slot = 1_900_000_000;
    const id = await createParcel(h, ['--slot-start', String(slot)]);
    const csv = await h.cli(['get', id, '-o', 'csv', '--fields', 'entry_id,time_slot_period_start']);
    expect(csv).toEqual({ code: 0, stdout: `entry_id,time_slot_period_start\n${id},2030-03-17T17:46:40Z\n`, stderr: '' });
    const seconds = await h.cli(['get', id, '--jq', '[.entry_id, .time_slot_period_start] | @csv']);
    expect(seconds).toEqual({ code: 0, stdout: `"${id}",${slot}\n`, stderr: '' });
  });
});

describe('--jq errors', () => {
  it('on a terminal, text with its hint; piped, the JSON error line a script reads', async () => {
    const tty = await h.cli(['couriers', '--jq', '.couriers |'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/^Error: --jq jq: error: syntax error, .*\nHint: check the expression: \.couriers \|\n$/);
    const piped = await h.cli(['couriers', '--jq', '.couriers |']);
    expect(piped.code).toBe(2);
    expect(JSON.parse(piped.stderr)).toMatchObject({ error: { code: 'invalid_usage', field: '--jq', exit_code: 2 } });
    // Asked for JSON by name: JSON errors at a terminal too.
    expect(JSON.parse((await h.cli(['couriers', '--json', '--jq', '.couriers |'], { tty: true })).stderr)).toMatchObject({ error: { field: '--jq' } });
  });
});

describe('--verbose', () => {
  it('traces the request and response to stderr, redacted; stdout keeps only the data', async () => {
    const id = await createParcel(h);
    const plain = await h.cli(['get', id, '--json']);
    const r = await h.cli(['get', id, '--json', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toContain(`> GET ${h.sandbox.url}/deliveries/v1/parcels/${id}\n`);
    expect(r.stderr).toContain('> Authorization: Bearer ***REDACTED***\n');
    expect(r.stderr).toMatch(/^< 200 OK \(\d+ ms\)$/m);
    expect(r.stderr).toMatch(/^< etag: ".+"$/m);
    expect(r.stderr).not.toContain(FULL_KEY);
  });

  it('a POST trace shows the body but not the key', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--verbose', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(r.stderr).toContain(`> POST ${h.sandbox.url}/deliveries/v1/parcels\n`);
    expect(r.stderr).toMatch(/^< 201 /m);
    expect(r.stderr).not.toContain(FULL_KEY);
  });
});

describe('colour', () => {
  const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: h.sandbox.url, PARCELS_API_KEY: FULL_KEY });

  it('a colourful terminal does get ESC bytes (the control for the checks below)', async () => {
    const id = await createParcel(h);
    const r = await runWithTerminal(['get', id], { ...env(), FORCE_COLOR: '1' }, true);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(ESC);
  });

  it('non-TTY output (table, stderr messages, errors) has no ESC bytes', async () => {
    const e = env();
    const created = await runWithTerminal(['create', ...PARCEL_FLAGS], e, false);
    expect(created.code).toBe(0);
    const id = /Created parcel (\S+)/.exec(created.stderr)?.[1] as string;
    const got = await runWithTerminal(['get', id], e, false);
    const list = await runWithTerminal(['list'], e, false);
    const failed = await runWithTerminal(['get', '00000000-0000-4000-8000-000000000000'], e, false);
    expect(failed.code).toBe(4);
    for (const r of [created, got, list, failed]) {
      expect(r.stdout).not.toContain(ESC);
      expect(r.stderr).not.toContain(ESC);
    }
  });

  it('NO_COLOR on a terminal: no ESC bytes, and status names still shown', async () => {
    const e = { ...env(), NO_COLOR: '1' };
    const id = await createParcel(h);
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered'])).code).toBe(0);
    const got = await runWithTerminal(['get', id], e, true);
    expect(got.code).toBe(0);
    expect(got.stdout).not.toContain(ESC);
    expect(got.stdout).toContain('status       delivered\n');
    expect(got.stdout).toContain(id);
    const failed = await runWithTerminal(['get', 'nope'], e, true);
    expect(failed.code).toBe(2);
    expect(failed.stderr).not.toContain(ESC);
  });

  it('--no-color on a terminal: no ESC bytes', async () => {
    const id = await createParcel(h);
    const r = await runWithTerminal(['get', id, '--no-color'], env(), true);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stderr).not.toContain(ESC);
  });
});
