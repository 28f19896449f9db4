import { setMaxListeners } from 'node:events';
import { accessSync, constants } from 'node:fs';
import type { ApiClient } from '../api/http.js';
import type { Context } from '../context.js';
import { ConflictError, EXIT, ReportedFailure, UsageError } from '../errors.js';
import { bulkProgress, renderBulkSummary, resultWriter } from '../io/bulk-report.js';
import type { InputFormat } from './input.js';
import { inputFormat } from './input.js';
import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './line-worker.js';
import { DEFAULT_CONCURRENCY } from './runner.js';
import type { BulkKind, Send } from './types.js';

/**
 * The command side of a bulk run (`create|events add|attempts add --from FILE|-`): flags → options,
 * then the engine with a client of its own, results on stdout, summary (and a progress bar on a
 * terminal) on stderr, and the exit code of the worst line.
 */

/** The bulk and outbox flags, as the three command definitions share them. */
export interface BulkFlagValues {
  from?: string;
  format?: InputFormat;
  concurrency?: number;
  rate?: string;
  batchId?: string;
  queue: boolean;
  offline: boolean;
}

export interface BulkRunOptions {
  kind: BulkKind;
  /** A file path, or "-" for standard input. */
  from: string;
  format: InputFormat | undefined;
  concurrency: number;
  rate: number | undefined;
  batchId: string | undefined;
  /** Command-line values (typed) that win over each line's. */
  overrides: Record<string, unknown>;
  /** The observation time of a history line that gives none: now, as for a single request. */
  defaults: Record<string, unknown>;
}

const BATCH_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Checks the bulk flags (nothing is read or sent yet). `overrides` are the command's own flags,
 * typed; `now` (Unix seconds, the service's clock as the command knows it) fills a history line without a time.
 */
export function bulkOptions(kind: BulkKind, flags: BulkFlagValues, overrides: Record<string, unknown>, ctx: Context, now: number, idArg?: string): BulkRunOptions {
  const from = flags.from as string;
  if (idArg !== undefined) throw new UsageError('give either a parcel ID or --from, not both (with --from each line names its parcel)', '--from');
  if (ctx.globals.dryRun) throw new UsageError('--dry-run cannot be used with --from (each line is validated and reported instead)', '--dry-run');
  if (from !== '-') {
    try {
      accessSync(from, constants.R_OK);
    } catch (error) {
      throw new UsageError(`--from: cannot read "${from}" (${(error as NodeJS.ErrnoException).code ?? 'error'})`, '--from');
    }
    inputFormat(from, flags.format);
  }
  if (flags.batchId !== undefined && !BATCH_ID.test(flags.batchId)) {
    throw new UsageError('--batch-id must be 1-128 printable ASCII characters without spaces', '--batch-id');
  }
  return {
    kind,
    from,
    format: flags.format,
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    rate: flags.rate === undefined ? undefined : rateFlag(flags.rate),
    batchId: flags.batchId,
    overrides,
    defaults: kind === 'events' ? { occurred_at: now } : kind === 'attempts' ? { time_attempt: now } : {},
  };
}

/** `--rate 50/s` or `--rate 50`: requests per second, more than 0. */
function rateFlag(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/s)?\s*$/.exec(value);
  const rate = match === null ? Number.NaN : Number(match[1]);
  if (!(rate > 0)) throw new UsageError(`--rate must be a number of requests per second above 0, e.g. 50/s (got "${value}")`, '--rate');
  return rate;
}

/** Flags that only mean something with --from: refused for a single request rather than ignored. */
export function rejectBulkOnlyFlags(flags: BulkFlagValues): void {
  const given = (
    [
      ['--format', flags.format],
      ['--concurrency', flags.concurrency],
      ['--rate', flags.rate],
      ['--batch-id', flags.batchId],
    ] as const
  ).find(([, value]) => value !== undefined);
  if (given !== undefined) throw new UsageError(`${given[0]} needs --from FILE|-`, given[0]);
}

/** Where journals and the outbox are kept apart: the profile and its base URL, or the `--sandbox` database. */
export async function journalTarget(ctx: Context): Promise<string> {
  const id = await ctx.targetId();
  // No base URL: api() raises the usage error that says how to set one.
  if (id === undefined) await ctx.api();
  if (ctx.globals.sandbox) return id as string;
  return `${(await ctx.settings()).profile} ${id as string}`;
}

/** A client for the engine alone: no retries of its own (the engine retries) and not cancelled by the first Ctrl-C. */
export async function engineClient(ctx: Context, connections: number): Promise<ApiClient> {
  const settings = await ctx.target();
  if (settings.baseUrl === undefined) await ctx.api();
  const [{ ApiClient }, { requireApiKey }, { USER_AGENT }] = await Promise.all([
    import('../api/http.js'),
    import('../config/settings.js'),
    import('../version.js'),
  ]);
  return new ApiClient({
    baseUrl: settings.baseUrl as string,
    apiKey: requireApiKey(settings),
    timeoutMs: settings.timeoutMs,
    retries: 0,
    userAgent: USER_AGENT,
    connections,
    trace: ctx.globals.verbose ? (line: string) => void ctx.io.stderr.write(`${line}\n`) : undefined,
  });
}

/**
 * The sender of a bulk run: BulkSender (lean, one pool) or, with --verbose, the engine client,
 * whose traces show every request and answer.
 */
export async function engineSender(ctx: Context, connections: number): Promise<{ send: Send; close(): Promise<void> }> {
  if (ctx.globals.verbose) {
    const [client, { sendThrough }] = await Promise.all([engineClient(ctx, connections), import('./client-send.js')]);
    return { send: sendThrough(client), close: () => client.close() };
  }
  const settings = await ctx.target();
  if (settings.baseUrl === undefined) await ctx.api();
  const [{ BulkSender }, { requireApiKey }, { USER_AGENT }] = await Promise.all([
    import('../api/bulk-send.js'),
    import('../config/settings.js'),
    import('../version.js'),
  ]);
  const sender = new BulkSender({ baseUrl: settings.baseUrl as string, apiKey: requireApiKey(settings), timeoutMs: settings.timeoutMs, userAgent: USER_AGENT, connections });
  return { send: sender.send, close: () => sender.close() };
}

/** Extra attempts per line: `--retries`/PARCELS_RETRIES/the profile when set, else 10 for bulk runs. */
export async function engineRetries(ctx: Context): Promise<number> {
  const settings = await ctx.settings();
  return settings.sources.retries === 'default' ? DEFAULT_BULK_RETRIES : settings.retries;
}

export async function runBulkCommand(opts: BulkRunOptions, ctx: Context): Promise<void> {
  const [{ runImport }, { dataDir }, { JournalLockedError }, v8] = await Promise.all([
    import('./import.js'),
    import('../config/paths.js'),
    import('../config/journal-lock.js'),
    import('node:v8'),
  ]);
  // A bulk run allocates fast and keeps little: with V8's default growth the old generation fills
  // with garbage far past what the run holds. Growing it 10% at a time keeps a 1,000,000-line
  // import ~25 MB smaller at about the same CPU (BENCHMARKS.md). The process ends with the run.
  v8.setFlagsFromString('--heap-growing-percent=10');
  const target = await journalTarget(ctx);
  const retries = await engineRetries(ctx);
  const sender = await engineSender(ctx, opts.concurrency);
  const abandon = ctx.claimSecondSignal();
  // Every line in flight listens to both signals (its waits, its request): up to 64 at once, not a leak.
  setMaxListeners(4 * MAX_CONCURRENCY, ctx.signal, abandon);
  const results = resultWriter(ctx.io);
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? await bulkProgress(ctx.io, opts.from === '-' ? undefined : opts.from) : undefined;
  try {
    const summary = await runImport({
      kind: opts.kind,
      input: opts.from,
      stdin: ctx.io.stdin,
      format: opts.format,
      batchId: opts.batchId,
      overrides: opts.overrides,
      defaults: opts.defaults,
      dataDir: dataDir(ctx.env),
      target,
      // Benchmarks only (bench/bulk-import.mjs measures the journal's cost): a run without it is not safe to repeat.
      journal: ctx.env.PARCELS_BENCH_NO_JOURNAL !== '1',
      send: sender.send,
      emit: (result) => {
        progress?.tick(result);
        return results.write(result);
      },
      concurrency: opts.concurrency,
      retries,
      rate: opts.rate,
      signal: ctx.signal,
      abandon,
      now: () => ctx.now(),
    });
    await results.end();
    progress?.stop();
    await renderBulkSummary(ctx.io, summary);
    if (summary.exitCode !== EXIT.OK) throw new ReportedFailure(summary.exitCode);
  } catch (error) {
    // The results of the lines before the failure still reach stdout, ahead of its message.
    await results.end().catch(() => undefined);
    progress?.stop();
    if (error instanceof JournalLockedError) {
      throw new ConflictError(`${error.message} (batch journal ${error.lockPath})`, 'run it again once the other run has finished; it resumes where that one stopped');
    }
    throw error;
  } finally {
    await sender.close();
  }
}
