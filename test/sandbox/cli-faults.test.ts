/** `parcels sandbox faults …` in-process against a real sandbox over HTTP: exact output and exit codes. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

const s = await startSandbox({ seed: TEST_SEED });
afterAll(() => s.close());
beforeEach(() => void s.faults.clear());

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PARCELS_CONFIG_DIR: tempConfigDir(),
  PARCELS_BASE_URL: s.url,
  PARCELS_SANDBOX_ADMIN_TOKEN: s.adminToken,
  NO_COLOR: '1',
  ...extra,
});
const faults = (args: string[], extra: { tty?: boolean } = {}) => runCli(['sandbox', 'faults', ...args], { env: env(), ...extra });
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('parcels sandbox faults', () => {
  it('add fails exactly the next POST …/attempts with 503; list shows it spent', async () => {
    const added = await faults(['add', '--route', 'attempts.create', '--status', '503', '--times', '1', '--json']);
    const id = s.faults.list().rules[0]?.id as string;
    expect(added).toEqual({ code: 0, stdout: json({ id, route: 'attempts.create', status: 503, times: 1, remaining: 1, hits: 0 }), stderr: '' });
    const parcel = (await createParcel(s.url)).body.data.entry_id as string;
    const body = { time_attempt: nowS(), outcome: 1 };
    const idem = newKey();
    expect((await call(s.url, 'POST', `/deliveries/v1/parcels/${parcel}/attempts`, { body, idem })).status).toBe(503);
    expect((await call(s.url, 'POST', `/deliveries/v1/parcels/${parcel}/attempts`, { body, idem })).status).toBe(201);
    expect(await faults(['list', '--json'])).toEqual({
      code: 0,
      stdout: json({ rules: [{ id, route: 'attempts.create', status: 503, times: 1, remaining: 0, hits: 1 }], rates: { fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 } }),
      stderr: '',
    });
    // A person's log view marks the injected answer; the retry's row has no mark.
    const after = String(s.logs().at(-3)?.seq);
    const view = await runCli(['sandbox', 'logs', '--after', after, '--route', 'attempts.create'], { env: env(), tty: true });
    // At 80 columns the fault outranks the time, code, replay and latency columns.
    expect({ ...view, stdout: view.stdout.replace(/ +/g, ' ') }).toEqual({
      code: 0,
      stdout: ['SEQ METHOD ROUTE HTTP FAULT', `${Number(after) + 1} POST /parcels/${parcel}/attempts 503 ${id}`, `${Number(after) + 2} POST /parcels/${parcel}/attempts 201 -`, ''].join('\n'),
      stderr: 'Not shown at 80 columns: TIME, CODE, REPLAY, MS (widen the terminal, or use -o wide or --json)\n',
    });
  });

  it('a person reads a line per aimed fault and the rates', async () => {
    const a = s.faults.add({ route: 'attempts.create', status: 503, times: 1 });
    const b = s.faults.add({ method: 'GET', path: '/deliveries/v1/reference', org: 'org_b', latency_ms: 2000 });
    const c = s.faults.add({ route: 'parcels.create', drop: true, drop_before: true });
    expect(await faults([], { tty: true })).toEqual({
      code: 0,
      stdout: [
        `${a.id}  attempts.create: 503; 1 of 1 left, 0 hits`,
        `${b.id}  GET /deliveries/v1/reference of org_b: after 2000 ms, answered as usual; until removed, 0 hits`,
        `${c.id}  parcels.create: dropped, not carried out; until removed, 0 hits`,
        'rates  fail 0, drop 0, latency 0 ms, Retry-After 1 s',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('rates change at run time; remove and clear answer what went', async () => {
    expect(await faults(['rates', '--fail-rate', '0.1', '--latency', '200ms', '--json'])).toEqual({
      code: 0,
      stdout: json({ fail_rate: 0.1, drop_rate: 0, latency_ms: 200, retry_after_s: 1 }),
      stderr: '',
    });
    const rule = s.faults.add({ route: 'parcels.list', status: 500 });
    expect(await faults(['remove', rule.id, '--json'])).toEqual({ code: 0, stdout: json({ removed: { id: rule.id, route: 'parcels.list', status: 500, remaining: null, hits: 0 } }), stderr: '' });
    expect(await faults(['remove', rule.id])).toEqual({ code: 4, stdout: '', stderr: `Error: id: no aimed fault ${rule.id}\n` });
    s.faults.add({ route: 'parcels.list', status: 500 });
    expect(await faults(['clear', '--json'])).toEqual({ code: 0, stdout: json({ removed: 1 }), stderr: '' });
    expect(s.faults.list().rates).toEqual({ fail_rate: 0, drop_rate: 0, latency_ms: 0, retry_after_s: 1 });
  });

  it('bad input: exit 2 naming the flag and the rule, nothing sent', async () => {
    const cases: Array<[string[], string]> = [
      [['add', '--route', 'attempt.create', '--status', '503'], 'Error: --route must be an API route name such as attempts.create (got "attempt.create"); did you mean attempts.create?\nHint: did you mean attempts.create: `parcels sandbox faults add --status 503 --route attempts.create`\n'],
      [['add', '--status', '503'], 'Error: --route is needed: aim at a route name, or at a method and path\n'],
      [['add', '--method', 'GET', '--path', '/nope', '--status', '503'], 'Error: --path is served by no API route for GET (got "/nope")\n'],
      [['add', '--route', 'parcels.get'], 'Error: --status is needed (or drop, or latency_ms): say what the matching requests get\n'],
      [['add', '--route', 'parcels.get', '--status', '503', '--drop'], 'Error: --drop and --status cannot be used together\n'],
      [['add', '--route', 'parcels.get', '--latency', '11m'], 'Error: --latency takes a duration like 200ms, 2s or 1m, at most 10m (got "11m")\n'],
      [['add', '--route', 'parcels.get', '--latency', '5', '--code', 'gone'], 'Error: --code needs status: it shapes the error answer\n'],
      [['list', '--status', '503'], 'Error: --status goes with faults add, not faults list\n'],
      [['rates'], 'Error: faults rates needs a change: --fail-rate, --drop-rate, --latency or --retry-after (parcels sandbox faults shows the rates)\n'],
      [['rates', '--fail-rate', '2'], 'Error: --fail-rate must be a number from 0 to 1 (got "2")\n'],
      [['remove'], 'Error: faults remove needs the id of an aimed fault, e.g. parcels sandbox faults remove flt_1 (parcels sandbox faults lists them)\n'],
      [['clear', 'flt_1'], 'Error: faults clear takes no id (got "flt_1")\n'],
      [['break'], 'Error: unknown faults action "break"; use one of list, add, remove, clear, rates\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(['sandbox', 'faults', ...args], { env: env({ PARCELS_BASE_URL: 'http://127.0.0.1:9' }) });
      expect(r, args.join(' ')).toEqual({ code: 2, stdout: '', stderr });
    }
  });

  it('--sandbox: the embedded sandbox keeps no faults between commands, and says where to aim them', async () => {
    const r = await runCli(['--sandbox', 'sandbox', 'faults', 'add', '--route', 'parcels.get', '--status', '503'], { env: { PARCELS_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: the embedded sandbox (--sandbox) keeps no faults between commands; aim them at a running `parcels sandbox serve` (--base-url URL), or in a test through the library's sandbox.faults\n",
    });
  });
});
