import type { Journal } from './journal/journal.js';
import { Journal as JournalFile } from './journal/journal.js';
import { journalPath } from './journal/paths.js';
import type { Clock } from '../schemas/time.js';
import type { BatchPlan } from './batch.js';
import { planBatch } from './batch.js';
import { BatchChangedError } from './changed.js';
import type { InputFormat } from './input-format.js';
import { inputFormat } from './input-format.js';
import type { InputSurvey } from './items.js';
import { countLines } from '../io/progress.js';
import type { InputTally } from './input.js';
import { newTally, readInput } from './input.js';
import type { ColumnRules } from './csv/columns.js';
import type { Delimiter } from './csv/delimiter.js';
import { ContentDigest, surveyInput, workItems } from './items.js';
import { EarlierLines } from './journal/earlier.js';
import { LegacyJournals } from './legacy.js';
import { recordNewest } from './newest.js';
import { Occurrences } from './occurrences.js';
import type { BuildContext } from './build.js';
import type { InputLine } from './input.js';
import type { LineSkips, MatchedLinesChoice } from './created-index/run.js';
import { CreatedIndexWriter, matchEarlierBatches, previewEarlierBatches } from './created-index/run.js';
import { runRecording } from './recorder.js';
import { inputCodeNames } from './code-names.js';
import type { CodeNames } from '../schemas/codes.js';
import type { RunSummary } from './runner.js';
import { emptySummary, linesDone, runBulk } from './runner.js';
import type { RepeatReport } from './repeats.js';
import { Repeats } from './repeats.js';
import type { PoolGate } from '../api/core/gate.js';
import { OutageCircuit } from '../api/core/policy.js';
import { DEFAULT_BULK_RETRIES } from './limits.js';
import type { Timing } from '../api/core/sleep.js';
import { releaseQueued } from './queued.js';
import type { BulkKind, LineQueue, ResultLine, Send, WorkItem } from './types.js';

/** A bulk run from a file or standard input: batch → journal → input lines → work items → runner. */

export interface ImportOptions {
  kind: BulkKind;
  /** A file path, or "-" for `stdin`. */
  input: string;
  stdin?: NodeJS.ReadableStream;
  format?: InputFormat;
  /** CSV: the field separator (default: detected from the header line). */
  delimiter?: Delimiter | undefined;
  /** The header check, ignored columns and the identity column (default: every column is a field). */
  columns?: ColumnRules | undefined;
  /** Names the batch instead of the input's path (a file) or content (standard input). */
  batchId?: string;
  /** The input changed since its batch last ran: send the lines its journal does not hold, replay the rest. */
  continueBatch?: boolean;
  /** Import the file as a new batch (of its path and content). */
  newBatch?: boolean;
  /** create: lines that match what earlier batches on the target created are skipped or created again (a flag), else the profile's choice (default: refused). */
  matchedLines?: { flag: 'skip' | 'create' | undefined; setting: MatchedLinesChoice };
  /** The service's names for its codes (the flags' cache): asked only when the input writes a service or location type name. */
  codeNames?: () => Promise<CodeNames>;
  /** Command-line values that win over each line's (already typed). */
  overrides?: Readonly<Record<string, unknown>>;
  /** Overrides left out of the keys (a time typed relative to now). */
  unkeyed?: readonly string[];
  /** Values a line may leave out, already typed; the line's own and `overrides` win over them. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Events and attempts: skip a line that repeats an earlier line's parcel and status (--once-per-parcel). */
  oncePerParcel?: boolean;
  /** Told the batch before its first line is sent: its journal's path, and how many requests it already confirmed. */
  onBatch?(batch: { name: string; journalPath: string; confirmed: number }): void;
  /** The data directory: journals and the standard-input spool live here. */
  dataDir: string;
  /** Who the requests go to (profile + base URL, or the sandbox database): one journal per batch and target. */
  target: string;
  /** The target as the user knows it, for `parcels batches`. */
  where?: string;
  /** false: no journal (benchmarks only; a re-run would send everything again). */
  journal?: boolean;
  send: Send;
  emit(result: ResultLine): void | Promise<void>;
  /** --check: every work item goes here instead of being sent; nothing is journaled (the summary is empty). */
  inspect?(items: AsyncIterable<readonly WorkItem[]>): Promise<void>;
  concurrency?: number;
  retries?: number;
  /** --queue: the lines the outage stop keeps from being sent go here, and are marked queued in the batch's journal. */
  queue?: LineQueue;
  /** The outage stop; default: one of the run's own on `retries`. */
  circuit?: OutageCircuit;
  rate?: number;
  signal?: AbortSignal;
  abandon?: AbortSignal;
  /** The observation-time rule's clock (Unix seconds). */
  now?: Clock;
  /** The sender's pool gate (see RunOptions.gate). */
  gate?: PoolGate;
  timing?: Timing;
  random?: () => number;
  window?: number;
}

export interface ImportSummary extends RunSummary {
  /** The batch id, in full. */
  batch: string;
  /** Lines sent as new requests although an earlier version of them had created a parcel: line → that parcel. */
  edited: Map<number, string>;
  /** The physical lines read that were not lines of work (header, blank, continuations of a record), and how many were read. */
  input: InputTally;
  /** Stopped before the end: the input's lines never reached (not sent). */
  notReached: number;
  /** Events and attempts: lines repeating an earlier line's parcel and status. */
  repeats: RepeatReport | undefined;
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const format = opts.input === '-' ? (opts.format ?? 'ndjson') : inputFormat(opts.input, opts.format);
  const plan = await planBatch({ kind: opts.kind, input: opts.input, stdin: opts.stdin, dataDir: opts.dataDir, target: opts.target, batchId: opts.batchId, newBatch: opts.newBatch, signal: opts.signal });
  const reading = { bareIds: opts.kind !== 'create', signal: opts.signal, name: opts.input, delimiter: opts.delimiter, columns: opts.columns };
  // A CSV header it refuses (unknown columns) refuses the run before its journal is written.
  if (format === 'csv') await checkHeader(readInput(plan.source, format, reading));
  // Service and location type names are read from the service once, and an unknown one refused, before the journal is written.
  const codeNames = opts.codeNames === undefined ? undefined : await inputCodeNames(plan.source, (onHeader) => readInput(plan.source, format, { ...reading, onHeader }), { format, input: opts.input, load: opts.codeNames, overrides: opts.overrides, signal: opts.signal });
  const journal =
    opts.journal === false
      ? undefined
      : await JournalFile.open({ dir: opts.dataDir, target: opts.target, batch: plan.journalBatch, input: plan.path ?? '-', kind: opts.kind, ...(opts.where === undefined ? {} : { where: opts.where }) }, { compactsWhenDone: true });
  let skips: LineSkips | undefined;
  let writer: CreatedIndexWriter | undefined;
  try {
    if (journal !== undefined) await releaseQueued(journal, opts.dataDir, opts.target);
    // Read with the journal: what journals of the released version knew of this input (none: no adapter).
    const legacy = journal === undefined || opts.inspect !== undefined ? undefined : await LegacyJournals.forNewJournal(journal, opts.dataDir, opts.target, opts.kind, { path: plan.path, batchId: opts.batchId, sha256: plan.sha256 });
    const ctx = {
      kind: opts.kind,
      batch: plan.name,
      overrides: opts.overrides ?? {},
      unkeyed: opts.unkeyed ?? [],
      defaults: opts.defaults ?? {},
      now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
      codeNames,
      journal,
      // A re-run meets about as many requests as its journal confirmed: sized for them, the table never grows.
      occurrences: new Occurrences(journal?.done.size),
    };
    const lines = (tally?: InputTally) => readInput(plan.source, format, { ...reading, tally });
    const tally = newTally();
    const { earlier, content } = await checkInput(journal, plan, opts, () => surveyInput(lines(), ctx)).catch(async (error: unknown) => {
      if (error instanceof BatchChangedError && opts.kind === 'create') error.matchedLines = await matchedAsNewBatch(plan, opts, ctx, lines);
      throw error;
    });
    const matched = opts.kind === 'create' && journal !== undefined ? await earlierBatches(journal, plan, opts, ctx, lines) : undefined;
    skips = matched?.skips;
    // A relative time written in the input resolves against the batch's first run, whichever run sends its line.
    const fileNow = journal?.lastInput?.now ?? ctx.now();
    if (opts.inspect !== undefined) {
      await opts.inspect(workItems(lines(), { ...ctx, legacy: undefined, earlier, skips, fileNow }, new ContentDigest()));
      return { ...emptySummary(), batch: plan.name, edited: new Map(), input: tally, notReached: 0, repeats: undefined };
    }
    if (matched !== undefined) writer = new CreatedIndexWriter(opts.dataDir, opts.target, { batch: plan.journalBatch, input: plan.path ?? '-' });
    journal?.recordRunState({ t: 'input', sha256: plan.sha256, ...(content === undefined ? {} : { content }), ...(matched?.flag === undefined ? {} : { matched: matched.flag }), now: fileNow });
    // From its first run on, a plain run of the path compares with this batch and continues it.
    if (journal !== undefined && plan.startsNewest && plan.path !== undefined) await recordNewest(opts.dataDir, opts.target, { kind: opts.kind, path: plan.path, batch: plan.name, at: Date.now() });
    const digest = new ContentDigest();
    const edited = new Map<number, string>();
    const { recorder, unsent } = runRecording(journal, writer, opts.queue, plan.journalBatch);
    const repeats = opts.kind === 'create' ? undefined : new Repeats(opts.kind, opts.oncePerParcel === true);
    opts.onBatch?.({ name: plan.name, journalPath: journalPath(opts.dataDir, opts.target, plan.journalBatch), confirmed: journal?.done.size ?? 0 });
    const summary = await runBulk({
      items: workItems(lines(tally), { ...ctx, legacy, earlier, repeats, skips, fileNow }, digest),
      send: opts.send,
      emit: (result) => {
        if (result.earlier_entry_id !== undefined) edited.set(result.line, result.earlier_entry_id);
        return opts.emit(result);
      },
      ...(recorder === undefined ? {} : { recorder }),
      ...(unsent === undefined ? {} : { unsent }),
      concurrency: opts.concurrency,
      retries: opts.retries,
      circuit: opts.circuit ?? new OutageCircuit(opts.retries ?? DEFAULT_BULK_RETRIES),
      rate: opts.rate,
      signal: opts.signal,
      abandon: opts.abandon,
      gate: opts.gate,
      timing: opts.timing,
      random: opts.random,
      window: opts.window,
    });
    const read = summary.cancelled ? undefined : digest.digest();
    journal?.recordRunState({ t: 'run', created: summary.created, replayed: summary.alreadyDone, failed: summary.failed, invalid: summary.invalid, cancelled: summary.notSent, skipped: summary.skipped, queued: summary.queued, at: Date.now(), ...(read === undefined ? {} : { content: read }) });
    if (!summary.cancelled) {
      // Every line was read: what the journals of the released version knew is in this one now.
      legacy?.remove();
      // Every line confirmed: the next run reads the compact form instead of every record.
      await journal?.compactDone();
    }
    // Stopped early: the lines it never reached are counted (standard input too: it was spooled to a file).
    const notReached = summary.cancelled ? Math.max(0, (await countLines(plan.source)) - linesDone(summary) - tally.header - tally.blank - tally.continuation) : 0;
    return { ...summary, batch: plan.name, edited, input: tally, notReached, repeats: repeats?.report };
  } finally {
    skips?.close();
    try {
      writer?.close();
    } finally {
      journal?.close();
    }
  }
}

/** Reads as far as the first lines after the header: a header the reader refuses throws here. */
async function checkHeader(lines: AsyncGenerator<unknown>): Promise<void> {
  await lines.next();
  await lines.return(undefined);
}

/**
 * The same bytes ran to the end before with every line confirmed or invalid (none failed, skipped
 * or cancelled): every line is this batch's own, so the input is not matched again (a re-run of a
 * million lines would read them once more for nothing).
 */
function ranWhole(journal: Journal, plan: BatchPlan): boolean {
  const last = journal.lastRun;
  const input = journal.lastInput;
  if (input?.sha256 !== plan.sha256 || last?.content === undefined || (input.content !== undefined && input.content !== last.content)) return false;
  return journal.previous.size === 0 && last.skipped === 0 && last.failed === last.invalid && last.cancelled === 0;
}

/** create: how many lines of the input match what batches on the target created, were it imported as a new batch. */
async function matchedAsNewBatch(plan: BatchPlan, opts: ImportOptions, build: BuildContext, lines: () => AsyncIterable<InputLine[]>): Promise<number> {
  const report = await previewEarlierBatches({
    dataDir: opts.dataDir,
    target: opts.target,
    journalBatch: `${plan.journalBatch}\0new`,
    batch: plan.name,
    input: opts.input,
    lines,
    build,
    journal: undefined,
    flag: undefined,
    setting: 'refuse',
  });
  report.matches?.close();
  return (report.matches?.matched ?? 0) + (report.matches?.queued ?? 0);
}

/**
 * create: the input's lines against what earlier batches on the target created (refused here, or
 * how they are skipped), and what the run keeps choosing: a flag, else what this batch's earlier run
 * of the same bytes chose by flag.
 */
async function earlierBatches(journal: Journal, plan: BatchPlan, opts: ImportOptions, build: BuildContext, lines: () => AsyncIterable<InputLine[]>): Promise<{ skips: LineSkips | undefined; flag: 'skip' | 'create' | undefined }> {
  const remembered = journal.lastInput?.sha256 === plan.sha256 ? journal.lastInput.matched : undefined;
  const flag = opts.matchedLines?.flag ?? remembered;
  if (ranWhole(journal, plan)) return { skips: undefined, flag };
  const skips = await matchEarlierBatches({
    dataDir: opts.dataDir,
    target: opts.target,
    journalBatch: plan.journalBatch,
    batch: plan.name,
    input: opts.input,
    lines,
    build,
    journal,
    ...(plan.path === undefined ? {} : { source: plan.path }),
    flag,
    setting: opts.matchedLines?.setting ?? 'refuse',
  });
  return { skips, flag };
}

/**
 * An input whose bytes differ from what its batch last read is read once first: a file only
 * re-saved (other quoting, line endings, column order) has the same content digest and runs as
 * unchanged; a changed one is refused unless continued (or imported as a new batch, which has no
 * journal yet), saying how many of its lines the batch holds, and its edited lines are found.
 */
async function checkInput(journal: Journal | undefined, plan: BatchPlan, opts: ImportOptions, survey: () => Promise<InputSurvey>): Promise<{ earlier: EarlierLines; content: string | undefined }> {
  const none = { earlier: EarlierLines.none, content: undefined };
  if (journal === undefined) return none;
  const last = journal.lastInput;
  const ran = last !== undefined || journal.done.size > 0 || journal.previous.size > 0;
  if (!ran || last?.sha256 === plan.sha256) return none;
  const read = await survey();
  const known = [last?.content, journal.lastRun?.content].filter((digest) => digest !== undefined);
  if (known.includes(read.content)) return { earlier: EarlierLines.none, content: read.content };
  if (!opts.continueBatch) {
    const lastRan = journal.lastRun?.at ?? journal.meta.created;
    throw new BatchChangedError({ input: opts.input, batch: plan.name, lastRan, lines: read.lines, matched: read.matched, unconfirmed: read.unconfirmed, edited: read.edited });
  }
  return { earlier: read.earlier, content: read.content };
}
