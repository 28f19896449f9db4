/**
 * Shared set-up for the in-process command tests: a real sandbox on port 0, a runner that records
 * every stdout/stderr it saw (for the end-of-file secret check), and small parsing helpers.
 */
import { expect } from 'vitest';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { CliResult } from '../helpers/cli.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { replayHints } from '../helpers/hint-replay.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
export const ESC = '\u001b';

export interface Harness {
  sandbox: RunningSandbox;
  /** Every stdout and stderr this file's runs produced. */
  seen: string[];
  /** Runs the CLI with a fresh config dir (unless given), the sandbox URL and FULL_KEY. */
  cli(argv: string[], opts?: RunOpts): Promise<CliResult>;
  /** The env cli() would use, with a fresh config dir. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Records a result obtained some other way. */
  record(result: CliResult): CliResult;
  close(): Promise<void>;
}

export interface RunOpts {
  /** Config dir to use (to keep an ETag cache or profile between runs). */
  dir?: string;
  /** Replaces / adds env variables; a value of undefined removes the variable. */
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  tty?: boolean;
  now?: () => number;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  // test/helpers/seed.ts types scopes as string[]; the sandbox validates the seed at start-up.
  const sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0, ...options });
  const seen: string[] = [];
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const merged: NodeJS.ProcessEnv = {
      PARCELS_CONFIG_DIR: tempConfigDir(),
      PARCELS_BASE_URL: sandbox.url,
      PARCELS_API_KEY: FULL_KEY,
      ...extra,
    };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
    return merged;
  };
  const record = (result: CliResult): CliResult => {
    seen.push(result.stdout, result.stderr);
    return result;
  };
  return {
    sandbox,
    seen,
    env,
    record,
    async cli(argv, opts = {}) {
      const e = env({ ...(opts.dir === undefined ? {} : { PARCELS_CONFIG_DIR: opts.dir }), ...opts.env });
      return record(await runCli(argv, { env: e, stdin: opts.stdin, tty: opts.tty, now: opts.now }));
    },
    // Every hint this file provoked is run as printed while the sandbox still listens.
    async close() {
      try {
        await replayHints(expect.getState().testPath ?? 'harness');
      } finally {
        await sandbox.close();
      }
    },
  };
}

/** The afterAll check of every file: no key ever appears in anything printed. */
export function expectNoSecrets(seen: string[]): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const text of seen) for (const key of ALL_KEYS) expect(text).not.toContain(key);
}

export const PARCEL_FLAGS = ['--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10'];

/** Creates a parcel with --quiet and returns its entry_id. */
export async function createParcel(h: Harness, extra: string[] = [], opts: RunOpts = {}): Promise<string> {
  const r = await h.cli(['create', ...PARCEL_FLAGS, ...extra, '--quiet'], opts);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  return r.stdout.trim();
}

/** Parses JSON stdout of a run that must have succeeded. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience: records are asserted field by field
export function json(r: CliResult): any {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Every parcel of the caller's organisation (list --all --output ndjson). */
export async function allParcels(h: Harness, opts: RunOpts = {}): Promise<Record<string, unknown>[]> {
  const r = await h.cli(['list', '--all', '--output', 'ndjson'], opts);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The TSV record a non-TTY `create`/`get` prints for a fresh A-BIKE parcel with PARCEL_FLAGS. */
export function parcelTsv(p: { id: string; status?: string; weight?: string; addition?: string; start?: string; end?: string; service?: string; at: string; updated?: string }): string {
  return [
    `entry_id\t${p.id}`,
    'courier\tA-BIKE',
    'country\tNL',
    'postal_code\t1234AB',
    'number\t10',
    `addition\t${p.addition ?? ''}`,
    'parcel_length\t',
    'parcel_width\t',
    'parcel_height\t',
    `parcel_weight\t${p.weight ?? ''}`,
    `time_slot_period_start\t${p.start ?? ''}`,
    `time_slot_period_end\t${p.end ?? ''}`,
    `service_type\t${p.service ?? ''}`,
    `status\t${p.status ?? '0 registered'}`,
    `created_at\t${p.at}`,
    `updated_at\t${p.updated ?? p.at}`,
    '',
  ].join('\n');
}

/** The created_at value a TSV record shows (times vary between runs). */
export function tsvField(text: string, key: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`${key}\t`));
  if (line === undefined) throw new Error(`no ${key} in ${text}`);
  return line.slice(key.length + 1);
}

/** A base URL nothing listens on: a port the OS just gave out and took back (never a fixed port). */
export async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
