/**
 * `parcels track A B …` when the parcels fail differently (issue 33): what was found on stdout, one
 * error per failed id on stderr in argument order, and the exit code of the FIRST failed id. The
 * built binary against `parcels sandbox serve`; one parcel's read is answered 503 by a fault aimed at
 * its exact path (`parcels sandbox faults add --method GET --path …`), another id is unknown (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox, Spawned } from '../helpers/spawn.js';
import { binaryEnv, parcels as spawnParcels, serveSandbox } from '../helpers/spawn.js';

const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';
const HEADER = 'entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\n';

const seen: Spawned[] = [];
let sandbox: ServedSandbox;
let env: NodeJS.ProcessEnv;
/** Read as usual. */
let found: string;
/** Its every read answered 503 by the aimed fault. */
let unavailable: string;

async function parcels(args: string[]): Promise<Spawned> {
  const result = await spawnParcels(args, { env });
  seen.push(result);
  return result;
}

async function newParcel(): Promise<string> {
  const r = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

beforeAll(async () => {
  sandbox = await serveSandbox(TEST_SEED);
  // The sandbox's own config dir: `sandbox faults` finds its admin token there.
  env = binaryEnv({ PARCELS_CONFIG_DIR: sandbox.dir, PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
  found = await newParcel();
  unavailable = await newParcel();
  const path = `/deliveries/v1/parcels/${unavailable}`;
  const added = await parcels(['sandbox', 'faults', 'add', '--method', 'GET', '--path', path, '--status', '503', '--retry-after', '0', '--json']);
  expect(added.code, added.stderr).toBe(0);
  expect(JSON.parse(added.stdout)).toEqual({ id: 'flt_1', method: 'GET', path, status: 503, retry_after_s: 0, remaining: null, hits: 0 });
});

afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  const everything = seen.map((r) => r.stdout + r.stderr).join('\n') + sandbox.stderr();
  for (const key of ALL_KEYS) expect(everything).not.toContain(key);
});

describe('track: several parcels failing differently exit with the first failed id’s code', () => {
  const notFound = (): string => `Error: parcel ${UNKNOWN}: no parcel with entry_id ${UNKNOWN}\nHint: check the id (the parcel's entry_id UUID) and that it belongs to your organisation\n`;
  // The CLI's own retries come first (a notice each), then the error once they are spent.
  const retried = [1, 2, 3].map((n) => `503 Service Unavailable from the service; retrying in 0.0 s (${n}/3)\n`).join('');
  const unavailableError = (): string =>
    `Error: parcel ${unavailable}: injected fault flt_1: service unavailable\nHint: the service failed or is unavailable: try again later (raise --retries to retry longer)\n`;
  const foundRow = (): string => `${HEADER}${found}\t0 registered\t\t\t\tno\n`;

  it('503 first, then 404: exit 8 (service unavailable), both errors in argument order', async () => {
    const r = await parcels(['track', found, unavailable, UNKNOWN]);
    expect(r).toEqual({ code: 8, stdout: foundRow(), stderr: `${retried}${unavailableError()}${notFound()}` });
  });

  it('404 first, then 503: exit 4 (not found), both errors in argument order', async () => {
    const r = await parcels(['track', UNKNOWN, found, unavailable]);
    expect(r).toEqual({ code: 4, stdout: foundRow(), stderr: `${retried}${notFound()}${unavailableError()}` });
  });

  it('with --json: one error line per failed id, in argument order, each with its own exit_code; the process exits with the first', async () => {
    const unavailableLine = {
      error: {
        status: 503,
        code: 'service_unavailable',
        message: `parcel ${unavailable}: injected fault flt_1: service unavailable`,
        exit_code: 8,
        hint: 'the service failed or is unavailable: try again later (raise --retries to retry longer)',
      },
    };
    const notFoundLine = {
      error: {
        status: 404,
        code: 'parcel_not_found',
        message: `parcel ${UNKNOWN}: no parcel with entry_id ${UNKNOWN}`,
        exit_code: 4,
        field: 'id',
        hint: "check the id (the parcel's entry_id UUID) and that it belongs to your organisation",
      },
    };
    for (const [ids, code, lines] of [
      [[unavailable, UNKNOWN], 8, [unavailableLine, notFoundLine]],
      [[UNKNOWN, unavailable], 4, [notFoundLine, unavailableLine]],
    ] as const) {
      // --retries 0: the 503 is the answer at once, with no retry notice.
      const r = await parcels(['track', ...ids, found, '--json', '--retries', '0']);
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(lines);
      expect(JSON.parse(r.stdout)).toMatchObject({ entry_id: found, parcel: { entry_id: found, status: 0 }, latest: null, delivered: false });
    }
  });
});
