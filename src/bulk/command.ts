import { setMaxListeners } from 'node:events';
import { OutageCircuit } from '../api/core/policy.js';
import { connectionsFor } from '../api/core/transport.js';
import type { PoolGate } from '../api/core/gate.js';
import type { ApiClient } from '../api/http.js';
import { printedIds } from '../config/known-ids.js';
import { requireApiKey } from '../config/settings.js';
import type { Context } from '../context.js';
import { assertPresentable } from '../io/present/kinds.js';
import { RUN_LINES } from '../io/present/run.js';
import { EXIT, ReportedFailure } from '../errors.js';
import { otherCommand } from '../hint/hint.js';
import { dataDir } from '../config/paths.js';
import { COMMAND } from './queue.js';
import type { ResultWriter } from './report.js';
import { resultWriter } from './report.js';
import { renderMessage } from '../io/render.js';
import { FailedLines } from './summary/failed-lines.js';
import { fixAndRerunHint, oncePerParcelHint, resumeHint } from './summary/hints.js';
import { renderRunSummary } from './summary/render.js';
import type { ResultsFile } from './summary/results-file.js';
import { openResultsFile, resultsFilePath } from './summary/results-file.js';
import { bulkProgress } from '../io/progress.js';
import type { BulkRunOptions } from './flags.js';
import { holdBulkHeap } from './heap.js';
import { runImport } from './import.js';
import { inputFormat } from './input-format.js';

import { DEFAULT_BULK_RETRIES, MAX_CONCURRENCY } from './limits.js';
import { outageNotice } from './outage.js';
import { explainRefusal, importSource } from './run-input.js';
import { journalTarget } from './target.js';
import type { Send } from './types.js';

/**
 * The command side of a bulk run (`create|events add|attempts add --from FILE|-`), once its flags
 * are checked (flags.ts): the engine with a client of its own, results on stdout, summary (and a
 * progress bar on a terminal) on stderr, and the exit code of the worst line. Loaded only by a run.
 */

/**
 * A client for the engine alone: its `send` takes a line down the client's chain, retried and
 * admitted as the run says (LineRun: the client's gate, the process's for the service), and it is
 * not cancelled by the first Ctrl-C. Its chain traces with --verbose and not otherwise.
 */
export async function engineClient(ctx: Context, connections: number): Promise<ApiClient> {
  const settings = await ctx.target();
  if (settings.baseUrl === undefined) await ctx.api();
  const client = ctx.client({ baseUrl: settings.baseUrl as string, apiKey: requireApiKey(settings), timeoutMs: settings.timeoutMs, retries: 0, connections, cancelOnSignal: false });
  // undici loads while the run's start-up reads its files (profile, input, journal), instead of holding up the first line.
  client.warm();
  return client;
}

/** The sender of a bulk run: the engine client's `send` and gate. */
export async function engineSender(ctx: Context, connections: number): Promise<{ send: Send; gate: PoolGate; close(): Promise<void> }> {
  const client = await engineClient(ctx, connections);
  return { send: client.send, gate: client.gate, close: () => client.close() };
}

/** Extra attempts per line: `--retries`/PARCELS_RETRIES/the profile when set, else 10 for bulk runs. */
export async function engineRetries(ctx: Context): Promise<number> {
  const settings = await ctx.settings();
  return settings.sources.retries === 'default' ? DEFAULT_BULK_RETRIES : settings.retries;
}

export async function runBulkCommand(opts: BulkRunOptions, ctx: Context): Promise<void> {
  if (opts.check) return (await import('./check.js')).runCheck(opts, ctx);
  await assertPresentable(ctx, RUN_LINES);
  holdBulkHeap();
  const target = await journalTarget(ctx);
  const retries = await engineRetries(ctx);
  const sender = await engineSender(ctx, connectionsFor(opts.concurrency));
  const abandon = ctx.claimSecondSignal();
  // Every line in flight listens to both signals (its waits, its request): up to 64 at once, not a leak.
  setMaxListeners(4 * MAX_CONCURRENCY, ctx.signal, abandon);
  const input = opts.from === '-' ? undefined : { file: opts.from, csv: inputFormat(opts.from, opts.format) === 'csv' };
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? await bulkProgress(ctx.io, input) : undefined;
  // At a terminal the result lines go to a file beside the batch's journal (opened once the batch is
  // known), never scrolling past; the summary lists the failed ones. Piped, they are stdout's NDJSON.
  const terminal = ctx.io.stdoutIsTTY;
  let file: ResultsFile | undefined;
  let results: ResultWriter | undefined = terminal ? undefined : resultWriter(ctx.io.stdout);
  const failed = new FailedLines();
  // The parcel ids it prints stay known for prefixes (`events add 3f1c9a2b` after a bulk create).
  const printed = printedIds();
  const source = await importSource(opts, ctx, target);
  const circuit = new OutageCircuit(retries);
  const now = source.now ?? (() => ctx.now());
  const outbox = opts.queue ? new (await import('./outbox.js')).OutboxWriter({ dir: dataDir(ctx.env), target }, COMMAND[opts.kind], () => now() * 1000) : undefined;
  const closeResults = async (): Promise<void> => {
    await results?.end();
    await file?.close();
  };
  try {
    const summary = await runImport({
      ...source,
      // Benchmarks only (bench/bulk-import.mjs measures the journal's cost): a run without it is not safe to repeat.
      journal: ctx.env.PARCELS_BENCH_NO_JOURNAL !== '1',
      send: sender.send,
      gate: sender.gate,
      onBatch: (batch) => {
        progress?.notToSend(batch.confirmed);
        if (!terminal) return;
        file = openResultsFile(resultsFilePath(batch.journalPath));
        results = resultWriter(file.stream);
      },
      emit: (result) => {
        progress?.tick(result.outcome);
        failed.add(result);
        if (result.ok) printed.add(result.entry_id);
        return results?.write(result);
      },
      concurrency: opts.concurrency,
      retries,
      circuit,
      ...(outbox === undefined ? {} : { queue: outbox }),
      rate: opts.rate,
      signal: ctx.signal,
      abandon,
    });
    await closeResults();
    progress?.stop();
    await printed.rememberIn(await ctx.knownIds());
    const outage = summary.unreachable > 0 ? outageNotice(summary, opts.from, circuit.cause?.message, ctx.commandLine) : undefined;
    if (outage !== undefined) await renderMessage(ctx.io, outage.message, 'warn');
    if (outbox !== undefined && summary.queued > 0) {
      const lines = summary.queued === 1 ? '1 line was' : `${summary.queued} lines were`;
      const why = circuit.cause === undefined ? '' : ` (${circuit.cause.message})`;
      await renderMessage(ctx.io, `the service cannot be reached${why}: ${lines} kept in the outbox (${outbox.waiting} waiting); \`${otherCommand(ctx.commandLine, ['outbox', 'flush'])}\` sends them`, 'warn');
    }
    const hints =
      outage !== undefined
        ? [outage.hint]
        : summary.cancelled
          ? [resumeHint(opts, summary, ctx.commandLine)]
          : [fixAndRerunHint(opts, summary, ctx.commandLine), oncePerParcelHint(opts, summary, ctx.commandLine)];
    await renderRunSummary(ctx.io, {
      counts: summary,
      read: summary.input,
      notReached: summary.notReached,
      batch: summary.batch,
      edited: summary.edited,
      repeats: summary.repeats,
      ...(terminal ? { failed, resultsFile: file?.path } : {}),
      hints,
    });
    if (summary.exitCode !== EXIT.OK) throw new ReportedFailure(summary.exitCode);
  } catch (error) {
    // The results of the lines before the failure still reach stdout, ahead of its message.
    await closeResults().catch(() => undefined);
    progress?.stop();
    // The ids printed before the failure are remembered; the failure is what the user reads.
    await ctx.knownIds().then((known) => printed.rememberIn(known)).catch(() => undefined);
    throw explainRefusal(error, opts, ctx);
  } finally {
    outbox?.close();
    await sender.close();
  }
}
