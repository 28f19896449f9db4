import { accessSync, constants } from 'node:fs';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { InputFormat } from './input-format.js';
import { inputFormat } from './input-format.js';
import type { FlagValues } from '../definitions/definition.js';
import { longFlag } from '../definitions/definition.js';
import { bulk, createBulk, historyBulk } from '../definitions/flags.js';
import { DEFAULT_CONCURRENCY } from './limits.js';
import { timeFlag } from '../args/time-input.js';
import { sameCommand } from '../hint/hint.js';
import type { BulkKind } from './types.js';
import type { ColumnRules } from './csv/columns.js';
import { ignoreColumnsFlag } from './csv/columns.js';
import type { Delimiter } from './csv/delimiter.js';
import { delimiterFlag } from './csv/delimiter.js';

/**
 * The bulk flags of `create|events add|attempts add --from FILE|-` → the options of a bulk run,
 * checked before anything is read or sent. Kept apart from the run itself (command.ts), which a
 * single create never loads.
 */

/**
 * The bulk and outbox flags, typed from the definition the three commands share, and the
 * observation time of events and attempts (`--at`), as typed.
 */
export type BulkFlagValues = FlagValues<typeof bulk> & Partial<FlagValues<typeof historyBulk>> & Partial<FlagValues<typeof createBulk>> & { at?: string };

export interface BulkRunOptions {
  kind: BulkKind;
  /** A file path, or "-" for standard input. */
  from: string;
  format: InputFormat | undefined;
  /** CSV: --delimiter (else detected from the header line). */
  delimiter: Delimiter | undefined;
  /** --ignore-columns, --ignore-unknown-columns, --id-column. */
  columns: ColumnRules;
  concurrency: number;
  rate: number | undefined;
  batchId: string | undefined;
  /** The input changed since its batch ran: send the lines its journal does not hold (--continue). */
  continueBatch: boolean;
  /** Import the file as a new batch of its own content (--new-batch). */
  newBatch: boolean;
  /** Read and validate the whole input, send nothing (--check). */
  check: boolean;
  /** Lines the outage stop keeps from being sent go to the outbox (--queue). */
  queue: boolean;
  /** create: lines matching what earlier batches created are skipped (--skip-created) or created again (--create-again). */
  matchedLines: 'skip' | 'create' | undefined;
  /** Command-line values (typed) that win over each line's. */
  overrides: Record<string, unknown>;
  /** Overrides left out of the keys: a time typed relative to now (`--at now`, `--at -1h`) is another value on every run. */
  unkeyed: string[];
  /** The observation time of a history line that gives none: now, as for a single request. */
  defaults: Record<string, unknown>;
  /** Events and attempts: a line repeating an earlier line's parcel and status is skipped (--once-per-parcel). */
  oncePerParcel: boolean;
}

const BATCH_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Checks the bulk flags (nothing is read or sent yet). `overrides` are the command's own flags,
 * typed; `now` (Unix seconds, the service's clock as the command knows it) fills a history line without a time.
 */
export function bulkOptions(kind: BulkKind, flags: BulkFlagValues, overrides: Record<string, unknown>, ctx: Context, now: number, idArg?: string): BulkRunOptions {
  const from = flags.from as string;
  if (idArg !== undefined) throw new UsageError('give either a parcel ID or --from, not both (with --from each line names its parcel)', '--from');
  if (ctx.globals.dryRun) {
    throw new UsageError('--dry-run cannot be used with --from', '--dry-run', `\`${sameCommand(ctx.commandLine, { drop: ['--dry-run'], add: ['--check'] })}\` reads and validates every line (and its courier) and sends nothing`);
  }
  if (from !== '-') {
    try {
      accessSync(from, constants.R_OK);
    } catch (error) {
      throw new UsageError(`--from: cannot read "${from}" (${(error as NodeJS.ErrnoException).code ?? 'error'})`, '--from');
    }
    inputFormat(from, flags.format);
  }
  const csv = from === '-' ? flags.format === 'csv' : inputFormat(from, flags.format) === 'csv';
  if (flags.delimiter !== undefined && !csv) throw new UsageError(`--delimiter is for CSV input; ${from === '-' ? 'standard input is read as NDJSON unless --format csv' : `${from} is read as NDJSON`}`, '--delimiter');
  if (flags.idColumn !== undefined && flags.idColumn.trim() === '') throw new UsageError('--id-column must name a column', '--id-column');
  if (flags.newBatch && from === '-') throw new UsageError('--new-batch needs a file: standard input is a batch of its content (or of --batch-id)', '--new-batch');
  if (flags.batchId !== undefined && !BATCH_ID.test(flags.batchId)) {
    throw new UsageError('--batch-id must be 1-128 printable ASCII characters without spaces', '--batch-id');
  }
  return {
    kind,
    from,
    format: flags.format,
    delimiter: flags.delimiter === undefined ? undefined : delimiterFlag(flags.delimiter),
    columns: {
      kind,
      ignore: flags.ignoreColumns === undefined ? [] : ignoreColumnsFlag(flags.ignoreColumns),
      ignoreUnknown: flags.ignoreUnknownColumns === true,
      idColumn: flags.idColumn,
    },
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    rate: flags.rate === undefined ? undefined : rateFlag(flags.rate),
    batchId: flags.batchId,
    continueBatch: flags.continue === true,
    newBatch: flags.newBatch === true,
    check: flags.check === true,
    queue: flags.queue === true,
    matchedLines: flags.skipCreated ? 'skip' : flags.createAgain ? 'create' : undefined,
    overrides,
    unkeyed: kind !== 'create' && flags.at !== undefined && dependsOnNow(flags.at, now) ? [kind === 'events' ? 'occurred_at' : 'time_attempt'] : [],
    defaults: kind === 'events' ? { occurred_at: now } : kind === 'attempts' ? { time_attempt: now } : {},
    oncePerParcel: flags.oncePerParcel === true,
  };
}

/** A time flag whose value moves with the clock (`now`, `-1h`, `14:30`), unlike `2026-11-26T10:00Z` or Unix seconds. */
function dependsOnNow(value: string, now: number): boolean {
  const aYearLater = now + 400 * 86_400;
  return timeFlag(value, '--at', now) !== timeFlag(value, '--at', aYearLater);
}

/** `--rate 50/s` or `--rate 50`: requests per second, more than 0. */
function rateFlag(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/s)?\s*$/.exec(value);
  const rate = match === null ? Number.NaN : Number(match[1]);
  if (!(rate > 0)) throw new UsageError(`--rate must be a number of requests per second above 0, e.g. 50/s (got "${value}")`, '--rate');
  return rate;
}

/** The bulk flags that mean something without --from: --from itself and the outbox's. */
const WITHOUT_FROM: ReadonlySet<keyof typeof bulk> = new Set(['from', 'queue', 'queueAllowed', 'offline'] as const);

/** The other bulk flags, in the definition's order (the first given is the one named). */
export const BULK_ONLY_FLAGS = (Object.keys(bulk) as (keyof typeof bulk)[]).filter((key) => !WITHOUT_FROM.has(key));

/** Flags that only mean something with --from: refused for a single request rather than ignored. */
export function rejectBulkOnlyFlags(flags: BulkFlagValues): void {
  if (flags.oncePerParcel === true) throw new UsageError(`${longFlag(historyBulk.oncePerParcel)} needs --from FILE|-`, longFlag(historyBulk.oncePerParcel));
  const given = BULK_ONLY_FLAGS.find((key) => flags[key] !== undefined && flags[key] !== false);
  const createOnly = (Object.keys(createBulk) as (keyof typeof createBulk)[]).find((key) => flags[key] === true);
  if (given === undefined && createOnly === undefined) return;
  const flag = given === undefined ? longFlag(createBulk[createOnly as keyof typeof createBulk]) : longFlag(bulk[given]);
  throw new UsageError(`${flag} needs --from FILE|-`, flag);
}
