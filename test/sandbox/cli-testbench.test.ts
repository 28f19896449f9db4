/** `parcels sandbox clock / simulate / logs` in-process against a real sandbox over HTTP, and embedded with --sandbox. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualTime, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { KEY_A, PARCEL, TEST_SEED, call, createParcel } from './helpers.js';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true });
afterAll(() => s.close());

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PARCELS_CONFIG_DIR: tempConfigDir(),
  PARCELS_BASE_URL: s.url,
  PARCELS_SANDBOX_ADMIN_TOKEN: s.adminToken,
  NO_COLOR: '1',
  ...extra,
});

describe('parcels sandbox clock', () => {
  it('shows and moves the clock over the admin route; forward only', async () => {
    const shown = await runCli(['sandbox', 'clock', '--json'], { env: env() });
    expect(shown).toEqual({ code: 0, stdout: `${JSON.stringify({ now_ms: START, now: '2026-11-02T12:00:00.000Z', frozen: true, speed: 1 }, null, 2)}\n`, stderr: '' });
    const advanced = await runCli(['sandbox', 'clock', 'advance', '36h', '--json'], { env: env() });
    expect(JSON.parse(advanced.stdout).now).toBe('2026-11-04T00:00:00.000Z');
    const set = await runCli(['sandbox', 'clock', 'set', '2026-12-01T09:00Z', '--json'], { env: env() });
    expect(JSON.parse(set.stdout).now).toBe('2026-12-01T09:00:00.000Z');
    const back = await runCli(['sandbox', 'clock', 'set', '2026-11-01T09:00Z'], { env: env() });
    expect(back.code).toBe(6);
    expect(back.stdout).toBe('');
    expect(back.stderr).toContain("the clock only moves forward: 2026-11-01T09:00:00.000Z is before the sandbox's now, 2026-12-01T09:00:00.000Z");
  });

  it('bad input: exit 2 naming the action and the rule, nothing sent', async () => {
    const cases: Array<[string[], string]> = [
      [['advance', 'soon'], 'clock advance takes a duration like 90s, 15m, 36h or 2d (got "soon"); the clock only moves forward'],
      [['advance'], 'clock advance needs a value, e.g. parcels sandbox clock advance 36h'],
      [['set', 'tomorrow'], 'clock set takes an ISO 8601 time with a zone, e.g. 2026-12-01T09:00Z, or Unix seconds (got "tomorrow")'],
      [['speed', '-3'], 'clock speed takes a number above 0 and at most 1000000 (got "-3")'],
      [['rewind'], 'unknown clock action "rewind"; use one of show, advance, set, freeze, resume, speed'],
      [['freeze', 'now'], 'clock freeze takes no value (got "now")'],
    ];
    // The example in the message runs as printed.
    const missing = await runCli(['sandbox', 'clock', 'advance'], { env: env() });
    const example = /e\.g\. (parcels .+)$/m.exec(missing.stderr)?.[1] ?? '';
    expect(example).toBe('parcels sandbox clock advance 36h');
    const ran = await runCli([...example.split(' ').slice(1), '--json'], { env: env() });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout).speed).toBe(1);
    for (const [args, message] of cases) {
      const r = await runCli(['sandbox', 'clock', ...args], { env: env({ PARCELS_BASE_URL: 'http://127.0.0.1:9' }) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('refuses a customer key as admin token, and says where the token comes from when there is none', async () => {
    // The sandbox cannot prove it holds a customer key as its admin token, so the key is not even sent
    // (the admin route itself answers 403 customer_key_refused: test/sandbox/admin.test.ts).
    const customer = await runCli(['sandbox', 'clock'], { env: env({ PARCELS_SANDBOX_ADMIN_TOKEN: KEY_A }) });
    expect(customer.code).toBe(2);
    expect(customer.stderr).toContain(`the server at ${s.url} did not prove it holds the sandbox's admin token, so the token was not sent`);
    expect(customer.stderr + customer.stdout).not.toContain(KEY_A);
    const dir = tempConfigDir();
    const none = await runCli(['sandbox', 'clock'], { env: env({ PARCELS_CONFIG_DIR: dir, PARCELS_SANDBOX_ADMIN_TOKEN: undefined }) });
    expect(none.code).toBe(2);
    const port = new URL(s.url).port;
    expect(none.stderr).toContain(`no admin token for the sandbox at ${s.url} (no token file ${dir}/sandbox-admin-${port}.token): set PARCELS_SANDBOX_ADMIN_TOKEN, or run the sandbox on this machine with \`parcels sandbox serve\``);
  });

  it('--sandbox: the embedded sandbox needs no token and shares the stored clock with every later command', async () => {
    const dir = tempConfigDir();
    const e = { PARCELS_CONFIG_DIR: dir, NO_COLOR: '1' };
    expect((await runCli(['--sandbox', 'sandbox', 'clock', 'freeze'], { env: e })).code).toBe(0);
    expect((await runCli(['--sandbox', 'sandbox', 'clock', 'set', '2029-03-01T10:00Z'], { env: e })).code).toBe(0);
    const shown = await runCli(['--sandbox', 'sandbox', 'clock', '--json'], { env: e });
    expect(JSON.parse(shown.stdout)).toEqual({ now_ms: Date.UTC(2029, 2, 1, 10), now: '2029-03-01T10:00:00.000Z', frozen: true, speed: 1 });
    const created = await runCli(['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'], { env: e });
    expect(JSON.parse(created.stdout).created_at).toBe(Date.UTC(2029, 2, 1, 10) / 1000);
    const logs = await runCli(['--sandbox', 'sandbox', 'logs'], { env: e });
    expect(logs.code).toBe(2);
    expect(logs.stderr).toContain('the embedded sandbox (--sandbox) keeps no request log between commands');
  });
});

describe('parcels sandbox simulate', () => {
  it('assigns a scenario, shows its steps; the parcel moves as the clock advances', async () => {
    const id = (await createParcel(s.url)).body.data.entry_id as string;
    const assigned = await runCli(['sandbox', 'simulate', id, 'refused', '--json'], { env: env() });
    expect(assigned.code, assigned.stderr).toBe(0);
    const view = JSON.parse(assigned.stdout);
    expect(view.scenario).toBe('refused');
    expect(view.steps.map((step: { event?: number; attempt?: unknown }) => step.event ?? step.attempt)).toEqual([1, 2, 3, { outcome: 3, reason: 4 }]);
    const table = await runCli(['sandbox', 'simulate', id], { env: env() });
    expect(table.stderr).toContain(`Parcel ${id}: scenario refused (run `);
    expect(table.stderr).toContain('0 of 4 steps applied');
    expect(table.stdout.split('\n')[0]).toBe(['step', 'arrives_at', 'occurred_at', 'event', 'outcome', 'reason', 'copies', 'applied', 'refused'].join('\t'));
    await runCli(['sandbox', 'clock', 'advance', '6h'], { env: env() });
    const got = await runCli(['get', id, '--json'], { env: env({ PARCELS_API_KEY: KEY_A }) });
    expect(JSON.parse(got.stdout).status).toBe(5);
    const unknown = await runCli(['sandbox', 'simulate', id, 'teleport'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario "teleport"; known: happy, failed-then-delivered');
    const missing = await runCli(['sandbox', 'simulate', '00000000-0000-4000-8000-000000000000', 'happy'], { env: env() });
    expect(missing.code).toBe(4);
  });
});

describe('parcels sandbox logs', () => {
  it('lists what the sandbox received and answered; never a key; bodies only with --bodies', async () => {
    const id = (await createParcel(s.url)).body.data.entry_id as string;
    const table = await runCli(['sandbox', 'logs'], { env: env() });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe(['seq', 'at', 'method', 'path', 'status', 'code', 'replay', 'latency_ms'].join('\t'));
    expect(table.stdout).toContain('/deliveries/v1/parcels');
    const json = await runCli(['sandbox', 'logs', '--json'], { env: env() });
    const entries = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    const create = entries.filter((e) => e.route === 'parcels.create').at(-1);
    expect(create).toMatchObject({ method: 'POST', path: '/deliveries/v1/parcels', status: 201, code: null, replay: false, authorization: 'Bearer [redacted]' });
    expect(create).not.toHaveProperty('request_body');
    const bodies = await runCli(['sandbox', 'logs', '--json', '--bodies'], { env: env() });
    const withBody = (JSON.parse(bodies.stdout) as Array<Record<string, unknown>>).filter((e) => e.route === 'parcels.create').at(-1);
    expect(withBody?.response_body).toMatchObject({ data: { entry_id: id } });
    for (const r of [table, json, bodies]) expect(r.stdout + r.stderr).not.toContain(KEY_A);
  });

  it('filters as the admin route does: route, method, path, status class, org, after, idempotency key', async () => {
    await call(s.url, 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000404');
    await call(s.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: 'cli-filter-idem-0001' });
    const seqs = async (...flags: string[]) => {
      const r = await runCli(['sandbox', 'logs', '--json', ...flags], { env: env() });
      expect(r.stderr).toBe('');
      return (JSON.parse(r.stdout) as Array<{ seq: number; status: number }>).map((e) => `${e.seq}:${e.status}`);
    };
    const all = (JSON.parse((await runCli(['sandbox', 'logs', '--json'], { env: env() })).stdout) as Array<{ seq: number }>).map((e) => e.seq);
    const [missing, create] = all.slice(-2) as [number, number];
    expect(await seqs('--status', '4xx', '--method', 'get', '--path', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000404')).toEqual([`${missing}:404`]);
    expect(await seqs('--route', 'parcels.create', '--org', 'org_a', '--after', String(missing))).toEqual([`${create}:201`]);
    expect(await seqs('--idempotency-key', 'cli-filter-idem-0001')).toEqual([`${create}:201`]);
    expect(await seqs('--idempotency-key', 'cli-filter-idem-0001', '--status', '5xx')).toEqual([]);
    const bad = await runCli(['sandbox', 'logs', '--status', '5x'], { env: env() });
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([2, '', 'Error: --status must be a status from 100 to 599 (503) or a class of them (5xx) (got "5x")\n']);
  });
});

describe('parcels sandbox serve --scenarios', () => {
  it('a scenario file breaking a rule: exit 2 naming the file, each line and rule; nothing on stdout', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'flows.json');
    writeFileSync(file, '{\n  "scenarios": {\n    "slow": { "steps": [ { "after": "1 week", "event": 2 } ] }\n  },\n  "rules": [ { "scenario": "slow" } ]\n}\n');
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--scenarios', file], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // One line per problem, as the details of a validation error.
    expect(r.stderr).toBe(
      `Error: --scenarios: invalid scenario file ${file}:\n` +
        '  - line 3: scenarios.slow.steps.0.after: must be a duration like "90s", "15m", "2h" or "1d"\n' +
        '  - line 5: rules.0: needs "courier" or "postal_code" (or both)\n',
    );
    const speed = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--speed', 'fast'], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(speed.code).toBe(2);
    expect(speed.stderr).toContain('--speed must be a number above 0 and at most 1000000 (got "fast")');
    const rate = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--late-rate', '2'], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain('--late-rate must be a number from 0 to 1 (got "2")');
  });
});
