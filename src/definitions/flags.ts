/** Flags several commands share. */
import type { FlagSpec, IntFlag, StringFlag } from './definition.js';
import type { ParcelFieldRow } from '../schemas/parcel-fields.js';
import { PARCEL_FIELDS, parcelFieldHelp } from '../schemas/parcel-fields.js';

export const idempotencyKey = {
  type: 'string',
  flags: '--idempotency-key <key>',
  description: 'Idempotency-Key to send (8-128 bytes); default: a new random key',
} as const satisfies FlagSpec;
/** A one-shot write's answer wrapped for scripts (src/io/present/envelope.ts): create, events add, attempts add. */
export const envelope = {
  type: 'bool',
  flags: '--envelope',
  description: 'print {data, outcome, etag} as JSON: the answer\'s data, "created" or "replayed" (the service\'s stored answer to this Idempotency-Key), and its ETag or null',
  conflicts: ['from', 'offline'],
} as const satisfies FlagSpec;
export const data = {
  type: 'string',
  flags: '-d, --data <json>',
  description: 'request body as JSON, @file.json, or - for stdin (flags override its fields)',
} as const satisfies FlagSpec;

/** Bulk runs (`--from`) and the offline outbox (`--queue`, `--offline`): shared by create, events add and attempts add. */
export const bulk = {
  from: {
    type: 'string',
    flags: '--from <file>',
    description: 'one request per line of an NDJSON or CSV file, or - for stdin; flags override each line',
    conflicts: ['data', 'idempotencyKey'],
  },
  format: { type: 'choice', flags: '--format <format>', description: 'input format with --from (default: from the extension)', choices: ['ndjson', 'csv'] },
  delimiter: { type: 'string', flags: '--delimiter <sep>', description: 'CSV field separator with --from: comma, semicolon or tab (default: from the header line)' },
  ignoreColumns: { type: 'string', flags: '--ignore-columns <names>', description: 'CSV columns with --from that are never sent, comma-separated (e.g. street,city)' },
  ignoreUnknownColumns: { type: 'bool', flags: '--ignore-unknown-columns', description: 'with --from: never send CSV columns that are not fields of the request, instead of refusing the file' },
  idColumn: { type: 'string', flags: '--id-column <name>', description: "with --from: the column or field naming each line's identity (e.g. an order number); never sent" },
  concurrency: { type: 'int', flags: '--concurrency <n>', description: 'requests in flight with --from (default 8)', min: 1, max: 64 },
  rate: { type: 'string', flags: '--rate <n/s>', description: 'at most this many requests per second with --from, e.g. 50/s' },
  batchId: { type: 'string', flags: '--batch-id <id>', description: 'batch id with --from (default: from the file\'s path, or from stdin\'s content)' },
  continue: { type: 'bool', flags: '--continue', description: 'with --from: the file changed since its batch ran; send the lines its batch does not hold, replay the rest' },
  newBatch: {
    type: 'bool',
    flags: '--new-batch',
    description: 'with --from: import the file as a new batch of its own content (every line sent); plain runs of the path then use it',
    conflicts: ['batchId', 'continue'],
  },
  check: {
    type: 'bool',
    flags: '--check',
    description: 'with --from: read and validate every line and its courier (one read of your couriers), send nothing; exit 2 when a line would not be sent',
    conflicts: ['queue', 'offline'],
  },
  queue: {
    type: 'bool',
    flags: '--queue',
    description: 'if the service cannot be reached, keep the request in the outbox (exit 75); with --from, the lines not sent',
  },
  /** Commander's negation of --queue: true unless --no-queue was typed (cli.ts reads each of the pair on its own). */
  queueAllowed: {
    type: 'bool',
    flags: '--no-queue',
    description: "send only, never keep the request in the outbox, whatever the profile's queue_writes says",
    conflicts: ['offline'],
  },
  offline: { type: 'bool', flags: '--offline', description: 'put the request in the outbox without trying to send it (exit 75)', conflicts: ['from'] },
} as const satisfies Record<string, FlagSpec>;

/** Bulk runs of history lines (events add, attempts add). */
export const historyBulk = {
  oncePerParcel: {
    type: 'bool',
    flags: '--once-per-parcel',
    description: "with --from: send a parcel's status once; a line repeating an earlier line's parcel and status (a double scan) is skipped",
  },
} as const satisfies Record<string, FlagSpec>;

/** `create --from` only: what to do with lines matching parcels earlier batches on the target created (events and attempts files repeat on purpose). */
export const createBulk = {
  skipCreated: {
    type: 'bool',
    flags: '--skip-created',
    description: 'with --from: skip lines that match parcels earlier batches on this target created (each reported)',
    conflicts: ['createAgain'],
  },
  createAgain: { type: 'bool', flags: '--create-again', description: 'with --from: create lines that match parcels earlier batches created again (a copy too)' },
} as const satisfies Record<string, FlagSpec>;

/** The batch rules of `--from`, in the --help of create, events add and attempts add (README: "Bulk runs"). */
export const BULK_NOTES = [
  `Batches (--from):
  A batch is the file's real path (stdin: its content, or --batch-id), the target and the kind;
  a path's batch is its newest: after --new-batch, plain runs of the path use the new one.
  Each line's Idempotency-Key comes from the request it builds (flags included), not from its
  position: run the same command again and what was done is replayed, nothing is sent twice.
  A file changed since its batch ran is refused (exit 2, nothing sent), counting the lines the
  batch holds: --continue sends the others and replays those; --new-batch imports every line as
  a batch of its own (those too). The hint puts first the way that creates nothing twice.
  --continue pairs lines by content: a line is edited (earlier_entry_id) only where the batch's
  line at that number had the same courier, country, postal code and number (events, attempts:
  the same entry_id) and other fields differ. Failed lines: the summary prints the command to
  run once they are fixed. Stdin without --batch-id: each different input is a batch.`,
];

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The option key commander gives a long flag: `slot-start` → `slotStart`. */
export function optionKey<S extends string>(flag: S): CamelCase<S> {
  return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<S>;
}

/** Each flag keeps its literal syntax, so its name is a FlagName (src/schemas/flag-name.ts). */
type ParcelFieldFlags = {
  [F in ParcelFieldRow as CamelCase<F['flag']>]: (F['kind'] extends 'integer' ? IntFlag : StringFlag) & { readonly flags: `--${F['flag']} ${F['placeholder']}` };
};

function fieldFlags(command: 'create' | 'patch'): ParcelFieldFlags {
  return Object.fromEntries(
    PARCEL_FIELDS.map((f) => [
      optionKey(f.flag),
      {
        type: f.kind === 'integer' ? 'int' : 'string',
        flags: `--${f.flag} ${f.placeholder}`,
        description: parcelFieldHelp(f, command),
      },
    ]),
  ) as ParcelFieldFlags;
}

/** One create flag per parcel field, from the table in schemas/parcel-fields.ts. */
export const parcelFieldFlags = fieldFlags('create');

/** The same flags for `patch`: each sets the field's new value, parsed as `create` parses it. */
export const parcelChangeFlags = fieldFlags('patch');
