/**
 * Issue 9, "hints and messages that work as typed": every hint names the user's own command line
 * with the change it suggests, and each test runs the printed command exactly as printed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isoSeconds } from '../../src/schemas/time-text.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { TEST_SEED } from '../helpers/seed.js';
import { hintedCommands } from '../helpers/terminal.js';
import type { Harness } from './harness.js';
import { PARCEL_FLAGS, UUID_IN_TEXT, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

describe('the next-page hint', () => {
  it('repeats the filters and the page size, and the printed command returns the next page of the same filter', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_BASE_URL: undefined };
    // A courier of our own so other tests' parcels do not interfere; --sandbox is part of the command.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.cli(['--sandbox', 'create', ...PARCEL_FLAGS.map((w) => (w === 'A-BIKE' ? 'DEMO-VAN' : w)), '--quiet'], { dir, env });
      expect(r.code, r.stderr).toBe(0);
      ids.push(r.stdout.trim());
    }
    await h.cli(['--sandbox', 'events', 'add', ids[2] as string, '--status', 'in_transit'], { dir, env });
    const first = await h.cli(['--sandbox', 'list', '--courier', 'DEMO-VAN', '--status', 'registered', '--limit', '1'], { dir, env, tty: true });
    expect(first.code, first.stderr).toBe(0);
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1] as string;
    expect(first.stderr).toContain(`More results: parcels --sandbox list --courier DEMO-VAN --status registered --limit 1 --cursor ${cursor}  (or --all)\n`);
    const next = /More results: parcels (.*?) {2}\(or --all\)/.exec(first.stderr)?.[1]?.split(' ') as string[];
    const followed = await h.cli([...next, '--json'], { dir, env });
    const page = json(followed) as { parcels: { entry_id: string; status: number; courier: string }[] };
    expect(page.parcels).toHaveLength(1);
    expect(page.parcels[0]).toMatchObject({ status: 0, courier: 'DEMO-VAN' });
    expect(first.stdout).not.toContain(page.parcels[0]?.entry_id);
  });
});

describe('409 hints follow the error code', () => {
  it('idempotency_key_reused: the hint is the same command without --idempotency-key, which creates the parcel', async () => {
    const key = `reused-${Date.now()}`;
    expect((await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key, '--quiet'])).code).toBe(0);
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--weight', '7', '--idempotency-key', key]);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      'Error: this Idempotency-Key was already used with a different body; use a new key\n' +
        `Hint: that Idempotency-Key was already used for another request: run \`parcels create ${PARCEL_FLAGS.join(' ')} --weight 7\` to send a new key\n`,
    );
    const [command] = hintedCommands(r.stderr);
    const followed = await h.cli([...(command as string[]), '--json']);
    expect(json(followed)).toMatchObject({ parcel_weight: 7 });
  });

  it('parcel_delivered: says the status is final, no idempotency guess', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'delivered'])).code).toBe(0);
    const r = await h.cli(['events', 'add', id, '--status', 'in_transit']);
    expect(r).toEqual({
      code: 5,
      stdout: '',
      stderr:
        'Error: the parcel is delivered (status 4, terminal); it takes no further events or attempts\n' +
        'Hint: a delivered parcel (status 4) is final: it takes no more events or attempts\n',
    });
  });

  it('invalid_transition: the hint shows the parcel with the real id, and that command works', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not at home'])).code).toBe(0);
    const r = await h.cli(['events', 'add', id, '--status', 'registered']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^Error: .*\n/);
    expect(r.stderr.split('\n')[1]).toBe(`Hint: the parcel's current status does not allow that change: run \`parcels get ${id}\` to see its status`);
    const followed = await h.cli([...(hintedCommands(r.stderr)[0] as string[]), '--json']);
    expect(json(followed)).toMatchObject({ entry_id: id, status: 5 });
  });
});

describe('statuses 4 and 5 as events', () => {
  it('the hint is the attempt that sets that status, and it works as printed', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['events', 'add', id, '--status', 'Not Delivered']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --status 5 cannot be reported as a status event (only 0-3)\n' +
        `Hint: statuses 4 and 5 come from delivery attempts: \`parcels attempts add ${id} --outcome failed\`\n`,
    });
    const followed = await h.cli(hintedCommands(r.stderr)[0] as string[]);
    expect(followed.code, followed.stderr).toBe(0);
    expect(json(await h.cli(['get', id, '--json'])).status).toBe(5);
  });
});

describe('412 and the missing ETag', () => {
  it('a stale --if-match: both printed commands work, and --refresh applies the change', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['patch', id, '--weight', '9', '--if-match', '"stale"']);
    expect(r.code).toBe(5);
    const [get, refresh] = hintedCommands(r.stderr);
    expect(get).toEqual(['get', id]);
    expect(refresh).toEqual(['patch', id, '--weight', '9', '--refresh']);
    expect((await h.cli(get as string[])).code).toBe(0);
    const patched = await h.cli([...(refresh as string[]), '--json']);
    expect(json(patched)).toMatchObject({ entry_id: id, parcel_weight: 9 });
  });

  it('no cached ETag under --sandbox: the hint keeps --sandbox, and get then patch works as printed', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_BASE_URL: undefined };
    const created = await h.cli(['create', ...PARCEL_FLAGS.map((w) => (w === 'A-BIKE' ? 'DEMO-BIKE' : w)), '--sandbox', '--quiet'], { dir, env });
    const id = created.stdout.trim();
    // A status event makes the ETag cached by create stale, so the cache forgets it.
    expect((await h.cli(['events', 'add', id, '--status', 'picked_up', '--sandbox'], { dir, env })).code).toBe(0);
    const r = await h.cli(['patch', id, '--sandbox', '--addition', 'B'], { dir, env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: no cached ETag for parcel ${id} (a change is sent with If-Match)\n` +
        `Hint: run \`parcels get ${id} --sandbox\` first (it caches the ETag), or \`parcels patch ${id} --sandbox --addition B --refresh\` to read the latest one before patching\n`,
    });
    const [get, refresh] = hintedCommands(r.stderr);
    expect((await h.cli(get as string[], { dir, env })).code).toBe(0);
    const again = await h.cli(['patch', id, '--sandbox', '--addition', 'B', '--json'], { dir, env });
    expect(json(again)).toMatchObject({ entry_id: id, addition: 'B' });
    const refreshed = await h.cli(refresh as string[], { dir, env });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toBe(`✓ Updated parcel ${id}\n`);
  });
});

describe('a write whose answer was lost', () => {
  it('says it may have been applied, prints the key and a re-run command that is answered "(replayed)" without a second parcel', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'parcels-drop-')), 'shared.db');
    const dropping = await startSandbox({ seed: TEST_SEED, db, port: 0, faults: { dropRate: 1, seed: 1 } });
    const healthy = await startSandbox({ seed: TEST_SEED, db, port: 0 });
    try {
      const dir = tempConfigDir();
      const r = await h.cli(['create', ...PARCEL_FLAGS, '--retries', '0'], { dir, env: { PARCELS_BASE_URL: dropping.url } });
      expect(r.code).toBe(8);
      expect(r.stdout).toBe('');
      const key = /Idempotency-Key ([0-9a-f-]{36})\)/.exec(r.stderr)?.[1] as string;
      const [message, hint, rest] = r.stderr.split('\n');
      // undici's own words for the cut ("other side closed") may vary; what follows them may not.
      expect(message).toMatch(new RegExp(`^Error: connection closed by the service before a complete answer.*; the POST may have been applied \\(Idempotency-Key ${key}\\)$`));
      expect(hint).toBe(
        'Hint: re-run it with the same key to find out safely (a repeat is answered with the first result, never applied twice): ' +
          `\`parcels create ${PARCEL_FLAGS.join(' ')} --retries 0 --idempotency-key ${key}\`; ` +
          `or \`parcels create ${PARCEL_FLAGS.join(' ')} --retries 0 --idempotency-key ${key} --queue\` keeps it in the outbox to send later ` +
          '(exit 75; `parcels config set queue_writes yes` makes that the default)',
      );
      expect(rest).toBe('');
      const [rerun] = hintedCommands(r.stderr);
      const replayed = await h.cli(rerun as string[], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      expect(replayed.code, replayed.stderr).toBe(0);
      const id = UUID_IN_TEXT.exec(replayed.stdout)?.[0] as string;
      expect(replayed.stderr).toBe(`✓ Created parcel ${id} (replayed)\n`);
      const listed = await h.cli(['list', '--all', '--output', 'ndjson'], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      expect(listed.stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      await dropping.close();
      await healthy.close();
    }
  });
});

describe('a timeout', () => {
  it('a write that timed out: the re-run hint doubles --timeout and drops --retries 0, keeps the key, and is answered "(replayed)"', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'parcels-slow-')), 'shared.db');
    // Answers long after the client gives up (the write is applied before the answer is held back).
    const slow = await startSandbox({ seed: TEST_SEED, db, port: 0, faults: { latencyMs: 30_000 } });
    const healthy = await startSandbox({ seed: TEST_SEED, db, port: 0 });
    try {
      const dir = tempConfigDir();
      const r = await h.cli(['create', ...PARCEL_FLAGS, '--timeout', '0.5', '--retries', '0'], { dir, env: { PARCELS_BASE_URL: slow.url } });
      const key = /Idempotency-Key ([0-9a-f-]{36})\)/.exec(r.stderr)?.[1] as string;
      expect(r).toEqual({
        code: 8,
        stdout: '',
        stderr:
          `Error: no complete answer within the timeout (500 ms); the POST may have been applied (Idempotency-Key ${key})\n` +
          'Hint: re-run it with the same key and more time to find out safely (a repeat is answered with the first result, never applied twice): ' +
          `\`parcels create ${PARCEL_FLAGS.join(' ')} --timeout 1 --idempotency-key ${key}\`; ` +
          `or \`parcels create ${PARCEL_FLAGS.join(' ')} --timeout 0.5 --retries 0 --idempotency-key ${key} --queue\` keeps it in the outbox to send later ` +
          '(exit 75; `parcels config set queue_writes yes` makes that the default)\n',
      });
      const [rerun] = hintedCommands(r.stderr);
      const replayed = await h.cli(rerun as string[], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stderr).toBe(`✓ Created parcel ${UUID_IN_TEXT.exec(replayed.stdout)?.[0] ?? ''} (replayed)\n`);
    } finally {
      await slow.close();
      await healthy.close();
    }
  });

  it('a read that timed out: the hint runs it again with twice the time, without --retries 0', async () => {
    const slow = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0, faults: { latencyMs: 30_000 } });
    try {
      const r = await h.cli(['couriers', '--timeout', '0.5', '--retries', '0'], { env: { PARCELS_BASE_URL: slow.url } });
      expect(r).toEqual({
        code: 8,
        stdout: '',
        stderr: 'Error: no complete answer within the timeout (500 ms)\nHint: give the service more time: `parcels couriers --timeout 1`\n',
      });
    } finally {
      await slow.close();
    }
  });
});

describe('an event whose answer was lost', () => {
  it('the re-run pins the observation time the command filled in, so the same key sends the same bytes and is answered "(replayed)"', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'parcels-drop-')), 'shared.db');
    const healthy = await startSandbox({ seed: TEST_SEED, db, port: 0 });
    const dropping = await startSandbox({ seed: TEST_SEED, db, port: 0, faults: { dropRate: 1, seed: 1 } });
    try {
      const dir = tempConfigDir();
      const id = await createParcel(h, [], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      const seen = Math.floor(Date.now() / 1000) - 30;
      const r = await h.cli(['events', 'add', id, '--status', 'picked_up', '--retries', '0'], { dir, env: { PARCELS_BASE_URL: dropping.url }, now: () => seen });
      expect(r.code).toBe(8);
      const key = /Idempotency-Key ([0-9a-f-]{36})\)/.exec(r.stderr)?.[1] as string;
      const [rerun, queue] = hintedCommands(r.stderr);
      expect(rerun).toEqual(['events', 'add', id, '--status', 'picked_up', '--retries', '0', '--at', isoSeconds(seen), '--idempotency-key', key]);
      expect(queue).toEqual([...(rerun as string[]), '--queue']);
      // Later, at the healthy service: the same request, answered with the first result.
      const replayed = await h.cli(rerun as string[], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      expect(replayed.stderr).toBe(`✓ Recorded status event for parcel ${id} (replayed)\n`);
      expect(json(await h.cli(['events', 'list', id, '--json'], { dir, env: { PARCELS_BASE_URL: healthy.url } })).events).toHaveLength(1);
    } finally {
      await dropping.close();
      await healthy.close();
    }
  });
});

describe('(replayed)', () => {
  it('events add and attempts add repeated with the same key say so, and record once', async () => {
    const id = await createParcel(h);
    // A fixed --at: a repeat must send the same body bytes to be a replay.
    const at = String(Math.floor(Date.now() / 1000) - 60);
    const event = ['events', 'add', id, '--status', 'picked_up', '--at', at, '--idempotency-key', `event-key-${Date.now()}`];
    expect((await h.cli(event)).stderr).toBe(`✓ Recorded status event for parcel ${id}\n`);
    expect((await h.cli(event)).stderr).toBe(`✓ Recorded status event for parcel ${id} (replayed)\n`);
    expect(json(await h.cli(['events', 'list', id, '--json'])).events).toHaveLength(1);
    const attempt = ['attempts', 'add', id, '--outcome', 'failed', '--at', at, '--idempotency-key', `attempt-key-${Date.now()}`];
    expect((await h.cli(attempt)).stderr).toBe(`✓ Recorded delivery attempt for parcel ${id}\n`);
    expect((await h.cli(attempt)).stderr).toBe(`✓ Recorded delivery attempt for parcel ${id} (replayed)\n`);
    expect(json(await h.cli(['attempts', 'list', id, '--json'])).attempts).toHaveLength(1);
  });
});

describe('retry notices', () => {
  it('a 429 waited out says so on stderr, off a terminal and on one, and the command succeeds', async () => {
    // Every other request is answered 429 with Retry-After: 1, so each run waits exactly once.
    let requests = 0;
    const server = createServer((req, res) => {
      req.resume();
      requests++;
      const limited = requests % 2 === 1;
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '1' } : {}) });
      res.end(JSON.stringify(limited ? { data: null, error: { code: 'rate_limited', message: 'slow down' } } : { data: { couriers: [{ code: 'X-BIKE' }] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { PARCELS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      // CSV: no code-name lookup, so the command makes exactly one request (and one retry).
      const r = await h.cli(['couriers', '-o', 'csv'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('rate limited; retrying in 1 s (1/3)\n');
      expect(r.stdout).toContain('X-BIKE');
      // On a terminal the same notice is shown (beside the spinner), and stdout holds only the data.
      const tty = await h.cli(['couriers', '-o', 'csv'], { env, tty: true });
      expect(tty.code, tty.stderr).toBe(0);
      expect(tty.stderr).toContain('rate limited; retrying in 1 s (1/3)');
      expect(tty.stdout).not.toContain('rate limited');
      expect(requests).toBe(4);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('flag values: names, codes and --set', () => {
  it('names in any case with -, _ or space in every command that takes them', async () => {
    const id = await createParcel(h, ['--service-type', 'Next Day']);
    expect(json(await h.cli(['get', id, '--json'])).service_type).toBe(2);
    expect((await h.cli(['events', 'add', id, '--status', 'In Transit'])).code).toBe(0);
    const listed = json(await h.cli(['list', '--status', 'IN-TRANSIT', '--json'])) as { parcels: { entry_id: string }[] };
    expect(listed.parcels.map((p) => p.entry_id)).toContain(id);
    const attempt = await h.cli(
      ['attempts', 'add', id, '--outcome', 'Delivered-Elsewhere', '--delivered-country', 'NL', '--delivered-postal-code', '1234AB', '--delivered-number', '12', '--delivered-location-type', 'Safe Place', '--json'],
    );
    expect(json(attempt)).toMatchObject({ outcome: 2, delivered: { delivered_location_type: 3 } });
  });

  it('an unknown name: exit 2 with the valid names and a did-you-mean, nothing sent', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['events', 'add', id, '--status', 'in_trnasit'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --status must be a code number or one of: 0 registered, 1 picked_up, 2 in_transit, 3 in_delivery, 4 delivered, 5 not_delivered (got "in_trnasit"); did you mean in_transit?\n',
    });
    expect(json(await h.cli(['events', 'list', id, '--json'])).events).toEqual([]);
  });

  it('--delivered-country nl --delivered-postal-code "1234 ab": sent as NL and 1234AB (the one normalisation rule)', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere', '--delivered-country', 'nl', '--delivered-postal-code', '1234 ab', '--delivered-number', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB' } });
  });

  it('an unknown --courier on list: the refusal lists the organisation\'s couriers', async () => {
    const r = await h.cli(['list', '--courier', 'A-BIKES']);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr:
        "Error: --courier is not a registered courier code of your organisation\nHint: did you mean A-BIKE: `parcels list --courier A-BIKE`; your organisation's couriers: A-BIKE, A-VAN\n",
    });
  });

  it('--set coerces by the field type (number=12 is text), names the flag, and typos get did-you-mean', async () => {
    const { stdout } = await h.cli(['create', ...PARCEL_FLAGS, '--quiet']);
    const id = stdout.trim();
    const patched = await h.cli(['patch', id, '--refresh', '--set', 'number=12', '--set', 'weight=300', '--set', 'service_type=same-day', '--json']);
    expect(json(patched)).toMatchObject({ number: '12', parcel_weight: 300, service_type: 1 });
    expect(await h.cli(['patch', id, '--refresh', '--set', 'weight=heavy'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --set parcel_weight must be an integer (got "heavy")\n',
    });
    expect(await h.cli(['patch', id, '--refresh', '--clear', 'wieght'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --clear: unknown field "wieght"; did you mean weight?\n',
    });
    expect(await h.cli(['patch', id, '--refresh', '--set', 'adition=B'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --set: unknown field "adition"; did you mean addition?\n',
    });
  });
});

describe("the service's refusals name the flags the user typed", () => {
  it('--weight and --length, in the message and the details; --data fields keep their names', async () => {
    const r = await h.cli(['create', ...PARCEL_FLAGS, '--weight', '-5', '--length', '-1']);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr: 'Error: --length must be between 0 and 1000\n  - --length: must be between 0 and 1000\n  - --weight: must be between 0 and 1000000\n',
    });
    const d = await h.cli(['create', ...PARCEL_FLAGS, '--data', '{"parcel_weight":-5}']);
    expect(d).toEqual({ code: 6, stdout: '', stderr: 'Error: parcel_weight must be between 0 and 1000000\n' });
  });
});

describe('--json errors', () => {
  it("commander's parser errors are the one JSON line on stderr", async () => {
    expect(await h.cli(['list', '--bogus', '--json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"error":{"status":null,"code":"invalid_usage","message":"unknown option \'--bogus\'","exit_code":2}}\n',
    });
    expect(await h.cli(['get', '-o', 'json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"error":{"status":null,"code":"invalid_usage","message":"missing required argument \'id\'","exit_code":2}}\n',
    });
  });
});

describe('dry runs', () => {
  it('patch --refresh --dry-run shows the GET and then the PATCH; with --json both as JSON; nothing changes', async () => {
    const id = await createParcel(h);
    const url = `${h.sandbox.url}/deliveries/v1/parcels/${id}`;
    const text = await h.cli(['patch', id, '--weight', '5', '--refresh', '--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n').filter((l) => /^(GET|PATCH) /.test(l))).toEqual([`GET ${url}`, `PATCH ${url}`]);
    expect(text.stdout).toContain('If-Match: <ETag from the GET>\n');
    const asJson = await h.cli(['patch', id, '--weight', '5', '--refresh', '--dry-run', '--json']);
    const requests = json(asJson) as { method: string; url: string; headers: Record<string, string>; body?: string }[];
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', url],
      ['PATCH', url],
    ]);
    expect(requests[1]?.body).toEqual({ parcel_weight: 5 });
    expect(requests[0]?.headers.Authorization).toBe('Bearer ***REDACTED***');
    expect(json(await h.cli(['get', id, '--json'])).parcel_weight).toBeNull();
  });
});

describe('sandbox serve', () => {
  it('a missing --seed file: exit 2 naming it', async () => {
    const r = await h.cli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', '/nonexistent/seed.json']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: --seed: cannot read seed file /nonexistent/seed.json: ENOENT: no such file or directory, open '/nonexistent/seed.json'\n",
    });
  });
});

describe('validate-address --exit-status', () => {
  it('exit 0 for a valid address, 10 for one that is not (and 0 without the flag)', async () => {
    const valid = await h.cli(['validate-address', '--postal-code', '1234AB', '--number', '10', '--exit-status', '--json']);
    expect(json(valid)).toMatchObject({ valid: true });
    const invalid = await h.cli(['validate-address', '--postal-code', '0000', '--number', '10', '--exit-status', '--json']);
    expect(invalid.code).toBe(10);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ valid: false });
    expect(invalid.stderr).toBe('{"error":{"status":null,"code":"not_valid","message":"the service says the address is not valid","exit_code":10}}\n');
    expect((await h.cli(['validate-address', '--postal-code', '0000', '--number', '10'])).code).toBe(0);
  });
});
