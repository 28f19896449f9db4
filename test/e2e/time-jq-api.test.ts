/**
 * End-to-end for issue 10 (all but `track`): the built binary, spawned, against `parcels sandbox
 * serve` (also spawned) over real HTTP. Clock skew under --clock-offset, every --at form, --jq on a
 * record, a page and a streamed --all, the raw `api` command, and `usage` alone.
 * Run `npm run build` first (`npm test` does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox, Spawned } from '../helpers/spawn.js';
import { binaryEnv, parcels as spawnParcels, serveSandbox } from '../helpers/spawn.js';
import { tempConfigDir } from '../helpers/cli.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CREATE = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];
const seen: Spawned[] = [];

async function parcels(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Spawned> {
  const result = await spawnParcels(args, { env, input });
  seen.push(result);
  return result;
}

const nowS = (): number => Math.floor(Date.now() / 1000);

/** The warning for a sandbox 600 s behind; the Date header's whole seconds may make it read 601. */
function skewWarning(amount: string): string {
  return `! The service's clock is ${amount} behind this machine's (from its Date header); times given as now, -15m or today 14:30 are corrected by it\n`;
}
const SKEW_WARNINGS = [skewWarning('10 m'), skewWarning('10 m 1 s')];
/** The warning when one answer alone shows the skew: said at once, nothing corrected yet. */
const SEEN_ONCE = ['10 m', '10 m 1 s'].map((amount) => `! The service's clock is ${amount} behind this machine's (from its Date header); one answer says so: nothing is corrected until another agrees\n`);

let sandbox: ServedSandbox;
let behind: ServedSandbox;
/** Against the sandbox on this machine's clock, local time zone Europe/Amsterdam (UTC+1 in winter, +2 in summer). */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  [sandbox, behind] = await Promise.all([serveSandbox(TEST_SEED), serveSandbox(TEST_SEED, ['--clock-offset', '-600'])]);
  env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY, TZ: 'Europe/Amsterdam' });
});

afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  expect(await behind.stop()).toBe(0);
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n') + sandbox.stderr() + behind.stderr();
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

async function createParcel(e: NodeJS.ProcessEnv, extra: string[] = []): Promise<string> {
  const r = await parcels([...CREATE, ...extra, '--quiet'], e);
  expect(r.code).toBe(0);
  const id = r.stdout.trim();
  expect(id).toMatch(UUID);
  return id;
}

describe('clock skew (sandbox started with --clock-offset -600)', () => {
  it('says a skew seen once, applies it when a second answer agrees, keeps it, and the next default --at is accepted by the slow service', async () => {
    const e = binaryEnv({ PARCELS_BASE_URL: behind.url, PARCELS_API_KEY: FULL_KEY });
    const created = await parcels([...CREATE, '--quiet'], e);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(SEEN_ONCE).toContain(created.stderr);
    const id = created.stdout.trim();
    const read = await parcels(['get', id, '--json'], e);
    expect(SKEW_WARNINGS).toContain(read.stderr);

    const before = nowS();
    const event = await parcels(['events', 'add', id, '--status', 'in_transit', '--json'], e);
    const after = nowS();
    expect(event.code).toBe(0);
    expect(event.stderr).toBe('');
    const occurred = (JSON.parse(event.stdout) as { occurred_at: number }).occurred_at;
    // "now" on the service's clock: ten minutes before this machine's.
    expect(occurred).toBeGreaterThanOrEqual(before - 601);
    expect(occurred).toBeLessThanOrEqual(after - 599);

    // -15m counts from the corrected now too.
    const relative = await parcels(['attempts', 'add', id, '--outcome', 'failed', '--at', '-15m', '--json'], e);
    expect(relative.code).toBe(0);
    const attempted = (JSON.parse(relative.stdout) as { time_attempt: number }).time_attempt;
    expect(attempted).toBeGreaterThanOrEqual(before - 601 - 900);
    expect(attempted).toBeLessThanOrEqual(nowS() - 599 - 900);
  });

  it('without a kept skew the local "now" is 10 min in the service\'s future and rejected; a rejection teaches nothing, two successful answers do', async () => {
    const id = await createParcel(binaryEnv({ PARCELS_BASE_URL: behind.url, PARCELS_API_KEY: FULL_KEY }));
    const e = binaryEnv({ PARCELS_BASE_URL: behind.url, PARCELS_API_KEY: FULL_KEY });
    const rejected = await parcels(['events', 'add', id, '--status', '1'], e);
    expect(rejected.code).toBe(6);
    expect(rejected.stdout).toBe('');
    expect(rejected.stderr).toBe('Error: occurred_at must not be more than five minutes in the future\n');

    const reads = [await parcels(['couriers', '--json'], e), await parcels(['couriers', '--json'], e)];
    expect(SEEN_ONCE).toContain(reads[0]?.stderr);
    expect(SKEW_WARNINGS).toContain(reads[1]?.stderr);
    const retried = await parcels(['events', 'add', id, '--status', '1', '--json'], e);
    expect(retried.code).toBe(0);
    expect(retried.stderr).toBe('');
  });

  it('no warning against a service on this machine\'s clock', async () => {
    const r = await parcels([...CREATE, '--quiet'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('--at forms (TZ=Europe/Amsterdam)', () => {
  let id: string;
  beforeAll(async () => {
    id = await createParcel(env);
  });

  async function occurredAt(at: string): Promise<{ value: number; before: number; after: number }> {
    const before = nowS();
    const r = await parcels(['events', 'add', id, '--status', '1', '--at', at, '--json'], env);
    const after = nowS();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return { value: (JSON.parse(r.stdout) as { occurred_at: number }).occurred_at, before, after };
  }

  it.each([
    ['1795000000', 1795000000],
    ['2026-11-22T08:00:00Z', Date.UTC(2026, 10, 22, 8) / 1000],
    ['2026-11-22T09:00:00+01:00', Date.UTC(2026, 10, 22, 8) / 1000],
    ['2026-11-22T09:00', Date.UTC(2026, 10, 22, 8) / 1000],
    ['2026-07-01T12:00', Date.UTC(2026, 6, 1, 10) / 1000],
  ])('%s is an exact instant', async (at, expected) => {
    expect((await occurredAt(at)).value).toBe(expected);
  });

  it.each([
    ['now', 0],
    ['-15m', 900],
    ['-2h', 7200],
    ['-1d', 86_400],
    ['15m ago', 900],
  ])('%s counts back from now', async (at, back) => {
    const { value, before, after } = await occurredAt(at);
    expect(value).toBeGreaterThanOrEqual(before - back - 1);
    expect(value).toBeLessThanOrEqual(after - back + 1);
  });

  it('yesterday 09:00 and today 00:00 are local times of day', async () => {
    const amsterdam = (s: number): string =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' }).format(
        new Date(s * 1000),
      );
    /** The instant of `hour`:00 in Amsterdam on the calendar day `days` away from the one holding `at` (Unix seconds). */
    const localInstant = (at: number, days: number, hour: number): number => {
      const [y, m, d] = amsterdam(at).slice(0, 10).split('-').map(Number) as [number, number, number];
      const midnightUtc = Date.UTC(y, m - 1, d + days) / 1000;
      const date = amsterdam(midnightUtc + 12 * 3600).slice(0, 10);
      // Amsterdam is UTC+1 or UTC+2: one of the two is that day's `hour`:00.
      const found = [1, 2].map((offset) => midnightUtc + (hour - offset) * 3600).find((t) => amsterdam(t) === `${date}, ${String(hour).padStart(2, '0')}:00:00`);
      if (found === undefined) throw new Error(`no ${hour}:00 on ${date} in Amsterdam`);
      return found;
    };
    // Exact, whatever the time of day the test runs at (the run may cross midnight: either day's answer).
    const yesterday = await occurredAt('yesterday 09:00');
    expect([localInstant(yesterday.before, -1, 9), localInstant(yesterday.after, -1, 9)]).toContain(yesterday.value);
    expect(amsterdam(yesterday.value)).toMatch(/, 09:00:00$/);
    const today = await occurredAt('today 00:00');
    expect([localInstant(today.before, 0, 0), localInstant(today.after, 0, 0)]).toContain(today.value);
    expect(amsterdam(today.value)).toMatch(/, 00:00:00$/);
  });

  it('a form it does not know: exit 2 naming the flag and listing the forms, nothing sent', async () => {
    const r = await parcels(['events', 'add', id, '--at', 'next week'], env);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --at must be Unix seconds (1763798400), ISO 8601 with an offset (2026-11-22T08:00:00Z, 2026-11-22T09:00+01:00) ' +
        'or without one (2026-11-22T09:00, local time), "now", a relative time (-15m, -2h, -1d, 15m ago, +2h, in 30m), ' +
        'or a day and a local time (today 14:30, yesterday 09:00, tomorrow 08:00) (got "next week")\n',
    });
  });
});

describe('--jq', () => {
  let vans: string[];
  beforeAll(async () => {
    const a = await createParcel(env, ['--courier', 'A-VAN', '--weight', '700']);
    const b = await createParcel(env, ['--courier', 'A-VAN', '--weight', '900']);
    vans = [a, b].sort();
  });

  it('on a record: one value, strings raw', async () => {
    const id = vans[0] as string;
    expect(await parcels(['get', id, '--jq', '.courier'], env)).toEqual({ code: 0, stdout: 'A-VAN\n', stderr: '' });
    expect(await parcels(['get', id, '--jq', '{courier, status}'], env)).toEqual({ code: 0, stdout: '{"courier":"A-VAN","status":0}\n', stderr: '' });
  });

  it('on a page: the page as --json prints it', async () => {
    const r = await parcels(['list', '--courier', 'A-VAN', '--jq', '([.parcels[].entry_id] | sort), .next_cursor'], env);
    expect(r).toEqual({ code: 0, stdout: `${JSON.stringify(vans)}\nnull\n`, stderr: '' });
  });

  it('on list --all: applied to each item as it streams, one result per line', async () => {
    const r = await parcels(['list', '--all', '--courier', 'A-VAN', '--limit', '1', '--jq', 'select(.parcel_weight > 800) | .parcel_weight'], env);
    expect(r).toEqual({ code: 0, stdout: '900\n', stderr: '' });
    const ids = await parcels(['list', '--all', '--courier', 'A-VAN', '--limit', '1', '--jq', '.entry_id'], env);
    expect(ids.code).toBe(0);
    expect(ids.stdout.trim().split('\n').sort()).toEqual(vans);
  });

  it('a bad expression: exit 2 with jq\'s message, before any request', async () => {
    // An unreachable service proves nothing was sent: a request would fail with exit 8.
    const r = await parcels(['list', '--jq', '.parcels[', '--base-url', 'http://127.0.0.1:9'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        status: null,
        code: 'invalid_usage',
        message: '--jq jq: error: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:; .parcels[; jq: 1 compile error',
        exit_code: 2,
        field: '--jq',
        hint: 'check the expression: .parcels[',
      },
    });
  });

  it('an error in the expression after some results: those results, then exit 2 with jq\'s message', async () => {
    const r = await parcels(['get', vans[0] as string, '--jq', '.courier, .courier.name'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('A-VAN\n');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        status: null,
        code: 'invalid_usage',
        message: '--jq jq: error: Cannot index string with string "name"',
        exit_code: 2,
        field: '--jq',
        hint: 'check the expression: .courier, .courier.name',
      },
    });
  });

  it('refuses a non-JSON --output', async () => {
    const r = await parcels(['list', '--jq', '.', '--output', 'csv'], env);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --jq filters JSON output and cannot be used with --output csv\n' });
  });
});

describe('parcels api', () => {
  it('GET prints the response body', async () => {
    const id = await createParcel(env);
    const r = await parcels(['api', 'GET', `/deliveries/v1/parcels/${id}`], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout) as { data: Record<string, unknown> };
    expect(body.data.entry_id).toBe(id);
    expect(r.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);
  });

  it('POST with typed and raw fields sends an Idempotency-Key; PATCH with If-Match changes the parcel', async () => {
    const post = await parcels(
      ['api', 'POST', '/deliveries/v1/parcels', '-f', 'courier=A-BIKE', '-f', 'country=NL', '-f', 'postal_code=1234AB', '-f', 'number=10', '-F', 'parcel_weight=250', '--verbose', '--jq', '.data | [.entry_id, .parcel_weight, .number] | @tsv'],
      env,
    );
    expect(post.code).toBe(0);
    const [id, weight, number] = post.stdout.trimEnd().split('\t');
    expect(id).toMatch(UUID);
    expect([weight, number]).toEqual(['250', '10']);
    expect(post.stderr).toMatch(/^> Idempotency-Key: [0-9a-f-]{36}$/m);
    expect(post.stderr).toContain('> {"parcel_weight":250,"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"10"}');

    const head = await parcels(['api', 'GET', `/deliveries/v1/parcels/${id}`, '--include'], env);
    const etag = /^etag: (.+)$/m.exec(head.stdout)?.[1];
    expect(head.stdout).toMatch(/^HTTP 200 OK\n/);
    expect(etag).toBeDefined();
    const patch = await parcels(['api', 'PATCH', `deliveries/v1/parcels/${id}`, '-F', 'parcel_weight=null', '-H', `If-Match: ${etag}`, '--jq', '.data.parcel_weight'], env);
    expect(patch).toEqual({ code: 0, stdout: 'null\n', stderr: '' });
  });

  it('404 → exit 4: the error body on stdout, the error on stderr', async () => {
    const r = await parcels(['api', 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000'], env);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({
      data: null,
      error: { code: 'parcel_not_found', message: 'no parcel with entry_id 00000000-0000-4000-8000-000000000000', field: 'id' },
    });
    expect(r.stderr).toBe(
      'Error: no parcel with entry_id 00000000-0000-4000-8000-000000000000\n' +
        "Hint: check the id (the parcel's entry_id UUID) and that it belongs to your organisation\n",
    );
  });

  it('--paginate follows next_cursor and streams the items as NDJSON', async () => {
    const e = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    const ids = [await createParcel(e, ['--courier', 'A-VAN', '--number', '77']), await createParcel(e, ['--courier', 'A-VAN', '--number', '77'])];
    const all = await parcels(['api', 'GET', '/deliveries/v1/parcels?courier=A-VAN', '--query', 'limit=1', '--paginate'], e);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    const lines = all.stdout.trimEnd().split('\n');
    const items = lines.map((line) => JSON.parse(line) as { entry_id: string; number: string });
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(items.filter((item) => item.number === '77').map((item) => item.entry_id).sort()).toEqual(ids.sort());
  });

  it('refuses an absolute URL and an Authorization header: exit 2, nothing sent', async () => {
    expect(await parcels(['api', 'GET', 'https://elsewhere.example/deliveries/v1/parcels'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: PATH must be a path on the profile\'s service such as /deliveries/v1/parcels, not a URL (got "https://elsewhere.example/deliveries/v1/parcels")\n' +
        "Hint: the API key is only ever sent to the profile's base URL; use --base-url or --profile to talk to another service\n",
    });
    expect(await parcels(['api', 'GET', '/deliveries/v1/parcels', '-H', 'Authorization: Bearer x'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: --header cannot set Authorization: parcels sends the profile's key itself, and only to its base URL\n",
    });
  });

  it('--dry-run shows the request with the key redacted and sends nothing', async () => {
    const r = await parcels(['api', 'POST', '/deliveries/v1/parcels', '-f', 'courier=A-BIKE', '--idempotency-key', 'key-12345678', '--dry-run'], {
      ...env,
      PARCELS_CONFIG_DIR: tempConfigDir(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST ${sandbox.url}/deliveries/v1/parcels`);
    expect(r.stdout).toContain('Idempotency-Key: key-12345678');
    expect(r.stdout).toContain('{"courier":"A-BIKE"}');
  });
});

describe('usage alone', () => {
  it('shows the daily totals, like usage daily', async () => {
    const r = await parcels(['usage'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('date\trequests\terrors');
    const daily = await parcels(['usage', 'daily'], env);
    expect(daily.stdout.split('\n')[0]).toBe('date\trequests\terrors');
    expect(daily.stdout.trimEnd().split('\n').length).toBe(lines.length);
    expect(await parcels(['usage', '--jq', '.days | length'], env)).toEqual({ code: 0, stdout: `${lines.length - 1}\n`, stderr: '' });
  });

  it('usage requests stays', async () => {
    const r = await parcels(['usage', 'requests', '--jq', '.requests[0] | keys | length > 0'], env);
    expect(r).toEqual({ code: 0, stdout: 'true\n', stderr: '' });
  });
});
