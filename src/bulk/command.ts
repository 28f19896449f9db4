import { setMaxListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { BulkSender } from '../api/core/dispatch.js';
import type { PoolGate } from '../api/core/gate.js';
import { sharedGate } from '../api/core/gate.js';
import { serviceOf } from '../api/core/transport.js';
import { ApiClient } from '../api/http.js';
import { JournalLockedError } from './journal/lock.js';
import { printedIds } from '../config/known-ids.js';
import { dataDir } from '../config/paths.js';
import { requireApiKey } from '../config/settings.js';
import { USER_AGENT } from '../version.js';
import type { Context } from '../context.js';
import { assertPresentable } from '../io/present/kinds.js';
import { RUN_LINES } from '../io/present/run.js';
import { ConflictError, EXIT, ReportedFailure, UsageError } from '../errors.js';
import type { CommandLine } from '../hint/hint.js';
import { sameCommand } from '../hint/hint.js';
import type { FlagName } from '../schemas/flag-name.js';
import { renderBulkSummary, resultWriter } from './report.js';
import { bulkProgress } from '../io/progress.js';
import { sendThrough } from './client-send.js';
import type { BulkRunOptions } from './flags.js';
import type { ImportSummary } from './import.js';
import { BatchChangedError, runImport } from './import.js';
import { inputFormat } from './input-format.js';
import { UnknownColumnsError } from './csv/columns.js';
import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './limits.js';
import { journalTarget, journalWhere } from './target.js';
import type { Send } from './types.js';

/**
 * The command side of a bulk run (`create|events add|attempts add --from FILE|-`), once its flags
 * are checked (flags.ts): the engine with a client of its own, results on stdout, summary (and a
 * progress bar on a terminal) on stderr, and the exit code of the worst line. Loaded only by a run.
 */

/** A client for the engine alone: no retries of its own (the engine retries) and not cancelled by the first Ctrl-C. */
export async function engineClient(ctx: Context, connections: number): Promise<ApiClient> {
  const settings = await ctx.target();
  if (settings.baseUrl === undefined) await ctx.api();
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
 * whose traces show every request and answer. Either tells the process's gate for the service
 * the pace of every answer; the engine admits through that gate.
 */
export async function engineSender(ctx: Context, connections: number): Promise<{ send: Send; gate: PoolGate; close(): Promise<void> }> {
  if (ctx.globals.verbose) {
    const client = await engineClient(ctx, connections);
    return { send: sendThrough(client), gate: client.gate, close: () => client.close() };
  }
  const settings = await ctx.target();
  if (settings.baseUrl === undefined) await ctx.api();
  const baseUrl = settings.baseUrl as string;
  const gate = sharedGate(serviceOf(baseUrl).origin);
  const sender = new BulkSender({ baseUrl, apiKey: requireApiKey(settings), timeoutMs: settings.timeoutMs, userAgent: USER_AGENT, connections, gate });
  return { send: sender.send, gate, close: () => sender.close() };
}

/** Extra attempts per line: `--retries`/PARCELS_RETRIES/the profile when set, else 10 for bulk runs. */
export async function engineRetries(ctx: Context): Promise<number> {
  const settings = await ctx.settings();
  return settings.sources.retries === 'default' ? DEFAULT_BULK_RETRIES : settings.retries;
}

/**
 * A bulk run allocates fast and keeps little: with V8's default growth the old generation fills
 * with garbage far past what the run holds. Growing it 10% at a time keeps a 100,000-line import's
 * peak RSS ~15% lower; keeping the young generation at its first size (V8 doubles it up to 32 MB
 * whenever enough has survived since it last grew, which a long run always reaches) saves ~28 MB
 * more for the same CPU (BENCHMARKS.md). The process ends with the run.
 */
export const BULK_HEAP_FLAGS = ['--heap-growing-percent=10', '--semi-space-growth-factor=1'] as const;

export async function runBulkCommand(opts: BulkRunOptions, ctx: Context): Promise<void> {
  await assertPresentable(ctx, RUN_LINES);
  for (const flag of BULK_HEAP_FLAGS) setFlagsFromString(flag);
  const target = await journalTarget(ctx);
  const retries = await engineRetries(ctx);
  const sender = await engineSender(ctx, opts.concurrency);
  const abandon = ctx.claimSecondSignal();
  // Every line in flight listens to both signals (its waits, its request): up to 64 at once, not a leak.
  setMaxListeners(4 * MAX_CONCURRENCY, ctx.signal, abandon);
  const input = opts.from === '-' ? undefined : { file: opts.from, csv: inputFormat(opts.from, opts.format) === 'csv' };
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? await bulkProgress(ctx.io, input) : undefined;
  // Results on the bar's terminal are written above it.
  const results = resultWriter(ctx.io, ctx.io.stdoutIsTTY ? progress : undefined);
  // The parcel ids it prints stay known for prefixes (`events add 3f1c9a2b` after a bulk create).
  const printed = printedIds();
  // The five-minute rule is the service's: lines are checked against the clock `--at now` was read from.
  const skew = (await ctx.serviceNow()) - ctx.now();
  try {
    const summary = await runImport({
      kind: opts.kind,
      input: opts.from,
      stdin: ctx.io.stdin,
      format: opts.format,
      delimiter: opts.delimiter,
      columns: opts.columns,
      batchId: opts.batchId,
      continueBatch: opts.continueBatch,
      newBatch: opts.newBatch,
      overrides: opts.overrides,
      unkeyed: opts.unkeyed,
      defaults: opts.defaults,
      dataDir: dataDir(ctx.env),
      target,
      where: await journalWhere(ctx),
      // Benchmarks only (bench/bulk-import.mjs measures the journal's cost): a run without it is not safe to repeat.
      journal: ctx.env.PARCELS_BENCH_NO_JOURNAL !== '1',
      send: sender.send,
      gate: sender.gate,
      emit: (result) => {
        progress?.tick();
        if (result.ok) printed.add(result.entry_id);
        return results.write(result);
      },
      concurrency: opts.concurrency,
      retries,
      rate: opts.rate,
      signal: ctx.signal,
      abandon,
      now: () => ctx.now() + skew,
    });
    await results.end();
    progress?.stop();
    await printed.rememberIn(await ctx.knownIds());
    await renderBulkSummary(ctx.io, { ...summary, hint: fixAndRerunHint(opts, summary, ctx.commandLine) });
    if (summary.exitCode !== EXIT.OK) throw new ReportedFailure(summary.exitCode);
  } catch (error) {
    // The results of the lines before the failure still reach stdout, ahead of its message.
    await results.end().catch(() => undefined);
    progress?.stop();
    // The ids printed before the failure are remembered; the failure is what the user reads.
    await ctx.knownIds().then((known) => printed.rememberIn(known)).catch(() => undefined);
    if (error instanceof BatchChangedError) {
      const again = (add: FlagName): string => sameCommand(ctx.commandLine, { drop: ['--continue', '--new-batch'], add: [add] });
      const newBatch = opts.from === '-' ? 'give it another `--batch-id`' : `\`${again('--new-batch')}\` imports it as a new batch`;
      throw new UsageError(error.message, '--from', `\`${again('--continue')}\` sends its changed and new lines and replays the others; ${newBatch}`);
    }
    if (error instanceof UnknownColumnsError) {
      const ignore = sameCommand(ctx.commandLine, { drop: ['--ignore-columns'], add: ['--ignore-columns', [...opts.columns.ignore, ...error.unknown].join(',')] });
      throw new UnknownColumnsError(error.input, error.unknown, error.kind, `rename ${error.unknown.length === 1 ? 'that column' : 'those columns'}, or run \`${ignore}\` to leave ${error.unknown.length === 1 ? 'it' : 'them'} out (or --ignore-unknown-columns for every unknown column)`);
    }
    if (error instanceof JournalLockedError) {
      throw new ConflictError(`${error.message} (batch journal ${error.lockPath})`, 'run it again once the other run has finished; it resumes where that one stopped');
    }
    throw error;
  } finally {
    await sender.close();
  }
}

/**
 * After a run with failed lines: the command that runs the batch again once they are fixed — the
 * user's own, continuing this batch (named in full when the command line alone would not find it
 * again: standard input without --batch-id, or --new-batch). Lines unchanged are replayed.
 */
export function fixAndRerunHint(opts: BulkRunOptions, summary: ImportSummary, line: CommandLine): string | undefined {
  if (summary.failed === 0) return undefined;
  const named = (opts.from === '-' && opts.batchId === undefined) || opts.newBatch;
  const command = named
    ? sameCommand(line, { drop: ['--continue', '--new-batch', '--batch-id'], add: ['--batch-id', summary.batch, '--continue'] })
    : sameCommand(line, { drop: ['--continue'], add: ['--continue'] });
  const what = opts.from === '-' ? 'the same input with those lines fixed' : `it once those lines are fixed in ${opts.from}`;
  return `run ${what}: \`${command}\` (it sends the fixed lines and replays the others)`;
}
