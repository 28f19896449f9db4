/**
 * End-to-end: a bulk file's service_type and delivered_location_type columns take what their flags
 * take (a number, or a name the service's reference route gives), through the flags' parser and
 * their code-name cache. The built binary against `parcels sandbox serve`; the sandbox's request
 * log counts the reference reads, and parcels are counted on the service.
 */
import { describe, expect, it } from 'vitest';
import { bulkHelpers, writeLines } from '../helpers/bulk.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, serveSandbox } from '../helpers/spawn.js';

const { parcels, results, allParcels } = bulkHelpers();

const SERVICE_NAMES = '0 standard, 1 same_day, 2 next_day, 3 evening, 4 signature_required, 5 age_check';

async function serve(): Promise<{ sandbox: ServedSandbox; env: NodeJS.ProcessEnv; dir: string }> {
  const sandbox = await serveSandbox(TEST_SEED);
  const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
  return { sandbox, env, dir: env.PARCELS_CONFIG_DIR as string };
}

/** The sandbox's request log, oldest first: method and path of each request. */
async function requestLog(sandbox: ServedSandbox): Promise<string[]> {
  const logs = await parcels(['sandbox', 'logs', '--output', 'ndjson', '--base-url', sandbox.url], { env: binaryEnv({ PARCELS_CONFIG_DIR: sandbox.dir }) });
  expect(logs.code, logs.stderr).toBe(0);
  return logs.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; path: string })
    .map((e) => `${e.method} ${e.path}`);
}

const REFERENCE = 'GET /deliveries/v1/reference';
const referenceReads = async (sandbox: ServedSandbox): Promise<number> => (await requestLog(sandbox)).filter((r) => r === REFERENCE).length;

describe('code columns take what their flags take', () => {
  it('service_type names in a CSV file: one reference read before anything is sent, the names as codes on the service; numbers alone need no read', async () => {
    const { sandbox, env, dir } = await serve();
    try {
      const before = (await allParcels(env)).length;
      const numbers = writeLines(dir, 'numbers.csv', ['courier,country,postal_code,number,service_type', 'A-BIKE,NL,1234AB,1,2', 'A-BIKE,NL,1234AB,2,']);
      const n = await parcels(['create', '--from', numbers], { env });
      expect(n.code, n.stderr).toBe(0);
      expect(await referenceReads(sandbox)).toBe(0);

      const named = writeLines(dir, 'named.csv', ['courier,country,postal_code,number,service_type', 'A-BIKE,NL,1234AB,3,next_day', 'A-BIKE,NL,1234AB,4,Same Day', 'A-BIKE,NL,1234AB,5,age-check', 'A-BIKE,NL,1234AB,6,3']);
      const r = await parcels(['create', '--from', named], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(results(r).map((l) => [l.line, l.outcome])).toEqual([
        [2, 'created'],
        [3, 'created'],
        [4, 'created'],
        [5, 'created'],
      ]);
      const log = await requestLog(sandbox);
      // The one read comes before the first create of the run.
      expect(log.filter((e) => e === REFERENCE)).toHaveLength(1);
      expect(log.slice(log.indexOf(REFERENCE) + 1).filter((e) => e === 'POST /deliveries/v1/parcels')).toHaveLength(4);
      expect(log.slice(0, log.indexOf(REFERENCE)).filter((e) => e === 'POST /deliveries/v1/parcels')).toHaveLength(2);

      const created = await allParcels(env);
      expect(created).toHaveLength(before + 6);
      const byNumber = new Map(created.map((p) => [String(p.number), p.service_type]));
      expect(['1', '3', '4', '5', '6'].map((k) => byNumber.get(k))).toEqual([2, 2, 1, 5, 3]);

      // The names are cached for the target as the flags' are: a second file with names reads nothing more.
      const again = writeLines(dir, 'again.ndjson', [JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '7', service_type: 'evening' })]);
      const a = await parcels(['create', '--from', again], { env });
      expect(a.code, a.stderr).toBe(0);
      expect(await referenceReads(sandbox)).toBe(1);
      expect((await allParcels(env)).find((p) => p.number === '7')?.service_type).toBe(3);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 120_000);

  it('an unknown name refuses the file up front naming column, line and names, with nothing sent (a run and --check alike)', async () => {
    const { sandbox, env, dir } = await serve();
    try {
      const before = (await allParcels(env)).length;
      const lines = ['courier,country,postal_code,number,service_type', ...Array.from({ length: 40 }, (_, i) => `A-BIKE,NL,1234AB,${i + 1},next_day`)];
      lines[31] = 'A-BIKE,NL,1234AB,31,nextday';
      const input = writeLines(dir, 'typo.csv', lines);
      const expected =
        `Error: --from: ${input}:32: the column "service_type" must be a code number or one of: ${SERVICE_NAMES} (got "nextday"); did you mean next_day?; nothing was sent\n` +
        `Hint: write one of those names or its number in service_type (--service-type takes the same)\n`;
      const r = await parcels(['create', '--from', input], { env });
      expect(r).toEqual({ code: 2, stdout: '', stderr: expected });
      const check = await parcels(['create', '--from', input, '--check'], { env });
      expect(check).toEqual({ code: 2, stdout: '', stderr: expected });
      // One read for the run (the check then reads the cache); no create, no couriers read.
      expect(await requestLog(sandbox)).toEqual(['GET /deliveries/v1/parcels', REFERENCE]);
      expect(await allParcels(env)).toHaveLength(before);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 120_000);

  it('a line written with a name and the same line with its number are one request: the copy with numbers is refused', async () => {
    const { sandbox, env, dir } = await serve();
    try {
      const rows = Array.from({ length: 20 }, (_, i) => `A-BIKE,NL,1234AB,${i + 1}`);
      const named = writeLines(dir, 'named.csv', ['courier,country,postal_code,number,service_type', ...rows.map((row) => `${row},next_day`)]);
      const r = await parcels(['create', '--from', named], { env });
      expect(r.code, r.stderr).toBe(0);
      const count = (await allParcels(env)).length;
      const coded = writeLines(dir, 'coded.csv', ['courier,country,postal_code,number,service_type', ...rows.map((row) => `${row},2`)]);
      const copy = await parcels(['create', '--from', coded], { env });
      expect(copy.code).toBe(2);
      expect(copy.stdout).toBe('');
      expect(copy.stderr).toMatch(new RegExp(`^Error: --from: ${coded} is a copy of batch [0-9a-f]{16} \\(${named}, ran [^)]+\\): 20 of its 20 lines \\(100%\\) match, in order, parcels that batch created on this target; nothing was sent\\n`));
      expect(await allParcels(env)).toHaveLength(count);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 120_000);

  it('delivered_location_type names in an attempts file, as a CSV column and nested in NDJSON', async () => {
    const { sandbox, env, dir } = await serve();
    try {
      const created = await parcels(['create', '--from', writeLines(dir, 'p.csv', ['courier,country,postal_code,number', 'A-BIKE,NL,1234AB,1', 'A-BIKE,NL,1234AB,2'])], { env });
      expect(created.code, created.stderr).toBe(0);
      const [first, second] = results(created).map((l) => l.entry_id as string);
      const address = 'NL,1234AB,12';
      const csv = writeLines(dir, 'attempts.csv', ['entry_id,outcome,delivered_country,delivered_postal_code,delivered_number,delivered_location_type', `${first},delivered,${address},Safe Place`]);
      const a = await parcels(['attempts', 'add', '--from', csv], { env });
      expect(a.code, a.stderr).toBe(0);
      const ndjson = writeLines(dir, 'attempts.ndjson', [JSON.stringify({ entry_id: second, outcome: 0, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12', delivered_location_type: 'locker' } })]);
      const b = await parcels(['attempts', 'add', '--from', ndjson], { env });
      expect(b.code, b.stderr).toBe(0);
      const locationOf = async (id: string): Promise<unknown> => {
        const list = await parcels(['attempts', 'list', id, '--json'], { env });
        expect(list.code, list.stderr).toBe(0);
        return (JSON.parse(list.stdout) as { attempts: Array<{ delivered?: { delivered_location_type?: number } }> }).attempts[0]?.delivered?.delivered_location_type;
      };
      expect([await locationOf(first as string), await locationOf(second as string)]).toEqual([3, 5]);
      expect(await referenceReads(sandbox)).toBe(1);

      const typo = writeLines(dir, 'typo.ndjson', [JSON.stringify({ entry_id: second, outcome: 0, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12', delivered_location_type: 'lockr' } })]);
      const t = await parcels(['attempts', 'add', '--from', typo, '--check'], { env });
      expect(t).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `Error: --from: ${typo}:1: the column "delivered_location_type" must be a code number or one of: 0 recipient, 1 neighbour, 2 mailbox, 3 safe_place, 4 pickup_point, 5 locker, 6 reception (got "lockr"); did you mean locker?; nothing was sent\n` +
          `Hint: write one of those names or its number in delivered_location_type (--delivered-location-type takes the same)\n`,
      });
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 120_000);
});
