/** The parse step of the bulk and outbox flags alone (no network): what each flag becomes, and every refusal. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { bulkRunOptions } from '../helpers/bulk-fixtures.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandDefinition } from '../../src/definitions/definition.js';
import type { RawFlag } from '../../src/command-kit/resolve-flags.js';
import { resolveFlags, resolveGlobalOptions } from '../../src/command-kit/resolve-flags.js';
import { definitions } from '../../src/definitions/table.js';
import { loadCommand } from '../../src/commands/loaders.js';
import type { CommandModule } from '../../src/command-kit/types.js';
import { createContext } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { isoSeconds } from '../../src/schemas/time-text.js';
import { captureIO } from '../helpers/io.js';

const NOW = 1_790_000_000;
const ID = '5f0c2a9e-8d41-4b7a-9c3e-1f2d3c4b5a69';
const dir = mkdtempSync(join(tmpdir(), 'bulk-parse-'));
const FILE = join(dir, 'lines.ndjson');
writeFileSync(FILE, '{}\n');

async function parse(definition: CommandDefinition, raw: Record<string, RawFlag>, args: string[] = [], dryRun = false): Promise<unknown> {
  const module = (await loadCommand(definition)).default as CommandModule<CommandDefinition, unknown>;
  const { io } = captureIO({ env: {} });
  const ctx = createContext({ io, env: {}, now: () => NOW, globals: resolveGlobalOptions({ dryRun }) });
  try {
    return await module.parse({ args, flags: resolveFlags(definition, raw) }, ctx);
  } finally {
    await ctx.close();
  }
}

async function refusal(promise: Promise<unknown>): Promise<{ message: string; field: string | undefined }> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  const { message, field } = error as UsageError;
  return { message, field };
}

describe('--from', () => {
  it('create: the flags given become overrides of every line; defaults apply', async () => {
    expect(await parse(definitions.create, { from: FILE, courier: 'A-BIKE', weight: '1200' })).toEqual(bulkRunOptions(FILE, { overrides: { courier: 'A-BIKE', parcel_weight: 1200 } }));
  });

  it('events add: typed overrides (status name, --at now fixed once), observation time defaults to now', async () => {
    expect(await parse(definitions.eventsAdd, { from: '-', status: 'in_delivery', at: 'now', concurrency: '64', rate: '50/s', batchId: 'depot-1', format: 'csv' })).toEqual({
      kind: 'events',
      from: '-',
      format: 'csv',
      delimiter: undefined,
      columns: { kind: 'events', ignore: [], ignoreUnknown: false, idColumn: undefined },
      concurrency: 64,
      rate: 50,
      batchId: 'depot-1',
      continueBatch: false,
      newBatch: false,
      check: false,
      queue: false,
      overrides: { status: 3, occurred_at: NOW },
      // Typed relative to now: left out of the keys, so a re-run tomorrow finds today's requests.
      unkeyed: ['occurred_at'],
      defaults: { occurred_at: NOW },
      oncePerParcel: false,
    });
  });

  it('attempts add: delivered-address flags go into `delivered`', async () => {
    const options = await parse(definitions.attemptsAdd, { from: FILE, outcome: 'delivered_elsewhere', deliveredCountry: 'NL' });
    expect(options).toMatchObject({ kind: 'attempts', overrides: { outcome: 2, delivered: { delivered_country: 'NL' } }, defaults: { time_attempt: NOW } });
  });

  it('CSV flags: --delimiter by name or sign, --ignore-columns, --ignore-unknown-columns, --id-column; --delimiter refused for NDJSON', async () => {
    const csv = join(dir, 'export.csv');
    writeFileSync(csv, 'a\n');
    expect(await parse(definitions.create, { from: csv, delimiter: ';', ignoreColumns: 'street, city', ignoreUnknownColumns: true, idColumn: 'order' })).toMatchObject({
      delimiter: 0x3b,
      columns: { kind: 'create', ignore: ['street', 'city'], ignoreUnknown: true, idColumn: 'order' },
    });
    expect(await parse(definitions.eventsAdd, { from: '-', format: 'csv', delimiter: 'tab' })).toMatchObject({ delimiter: 0x09 });
    expect(await refusal(parse(definitions.create, { from: FILE, delimiter: 'semicolon' }))).toEqual({ message: `--delimiter is for CSV input; ${FILE} is read as NDJSON`, field: '--delimiter' });
    expect(await refusal(parse(definitions.eventsAdd, { from: '-', delimiter: 'tab' }))).toEqual({ message: '--delimiter is for CSV input; standard input is read as NDJSON unless --format csv', field: '--delimiter' });
    expect(await refusal(parse(definitions.create, { from: csv, delimiter: '|' }))).toEqual({ message: '--delimiter must be comma, semicolon or tab (or , or ;) (got "|")', field: '--delimiter' });
    expect(await refusal(parse(definitions.create, { from: csv, ignoreColumns: 'a,,b' }))).toEqual({ message: '--ignore-columns must be column names separated by commas, e.g. street,city (got "a,,b")', field: '--ignore-columns' });
  });

  it('refuses what cannot work, naming the flag', async () => {
    expect(await refusal(parse(definitions.eventsAdd, { from: FILE }, [ID]))).toEqual({
      message: 'give either a parcel ID or --from, not both (with --from each line names its parcel)',
      field: '--from',
    });
    expect(await refusal(parse(definitions.create, { from: join(dir, 'missing.ndjson') }))).toEqual({ message: `--from: cannot read "${join(dir, 'missing.ndjson')}" (ENOENT)`, field: '--from' });
    const xml = join(dir, 'lines.xml');
    writeFileSync(xml, '');
    expect(await refusal(parse(definitions.create, { from: xml }))).toMatchObject({ message: `cannot tell the format of "${xml}" from its extension`, field: '--format' });
    expect(await refusal(parse(definitions.create, { from: FILE, rate: 'fast' }))).toEqual({
      message: '--rate must be a number of requests per second above 0, e.g. 50/s (got "fast")',
      field: '--rate',
    });
    expect(await refusal(parse(definitions.create, { from: FILE, rate: '0/s' }))).toMatchObject({ field: '--rate' });
    expect(await refusal(parse(definitions.create, { from: FILE, batchId: 'two words' }))).toEqual({
      message: '--batch-id must be 1-128 printable ASCII characters without spaces',
      field: '--batch-id',
    });
    expect(await refusal(parse(definitions.create, { from: FILE, concurrency: '65' }))).toMatchObject({ field: '--concurrency' });
    expect(await refusal(parse(definitions.create, { from: FILE }, [], true))).toMatchObject({ field: '--dry-run' });
    expect(await refusal(parse(definitions.create, { from: FILE, data: '{}' }))).toEqual({ message: '--from and --data cannot be used together', field: '--from' });
    expect(await refusal(parse(definitions.create, { from: FILE, offline: true }))).toMatchObject({ message: '--offline and --from cannot be used together' });
    expect(await refusal(parse(definitions.create, { from: FILE, check: true, queue: true }))).toMatchObject({ message: '--check and --queue cannot be used together' });
  });

  it('bulk-only flags without --from are refused, not ignored', async () => {
    expect(await refusal(parse(definitions.eventsAdd, { status: '1', concurrency: '4' }, [ID]))).toEqual({ message: '--concurrency needs --from FILE|-', field: '--concurrency' });
    expect(await refusal(parse(definitions.create, { courier: 'A-BIKE', country: 'NL', postalCode: '1234AB', number: '1', batchId: 'x' }))).toEqual({
      message: '--batch-id needs --from FILE|-',
      field: '--batch-id',
    });
    expect(await refusal(parse(definitions.attemptsAdd, { outcome: 'delivered' }))).toEqual({ message: "missing ID: the parcel's entry_id (or --from FILE|- for many)", field: 'ID' });
  });
});

describe('--queue / --offline', () => {
  it('mark a single request for the outbox; absent, the options are unchanged', async () => {
    expect(await parse(definitions.eventsAdd, { status: '2', queue: true, idempotencyKey: 'queue-key-0001' }, [ID])).toEqual({
      id: ID,
      body: { status: 2, occurred_at: NOW },
      idempotencyKey: 'queue-key-0001',
      envelope: false,
      queue: { queue: true, offline: false },
      pin: ['--at', isoSeconds(NOW)],
    });
    expect(await parse(definitions.attemptsAdd, { outcome: 'delivered', offline: true, idempotencyKey: 'queue-key-0002' }, [ID])).toEqual({
      id: ID,
      body: { outcome: 0, time_attempt: NOW },
      idempotencyKey: 'queue-key-0002',
      envelope: false,
      queue: { queue: false, offline: true },
      pin: ['--at', isoSeconds(NOW)],
    });
    expect(await parse(definitions.eventsAdd, { status: '2', idempotencyKey: 'queue-key-0003', at: String(NOW) }, [ID])).toEqual({
      id: ID,
      body: { status: 2, occurred_at: NOW },
      idempotencyKey: 'queue-key-0003',
      envelope: false,
    });
  });
});
