import type { Journal } from './journal/journal.js';
import { Journal as JournalFile } from './journal/journal.js';
import { UsageError } from '../errors.js';
import type { Clock } from '../schemas/time.js';
import type { BatchPlan } from './batch.js';
import { planBatch } from './batch.js';
import type { InputFormat } from './input-format.js';
import { inputFormat } from './input-format.js';
import type { InputTally } from './input.js';
import { newTally, readInput } from './input.js';
import type { ColumnRules } from './csv/columns.js';
import type { Delimiter } from './csv/delimiter.js';
import { ContentDigest, surveyInput, workItems } from './items.js';
import { LegacyJournals } from './legacy.js';
import { Occurrences } from './occurrences.js';
import type { RunSummary } from './runner.js';
import { runBulk } from './runner.js';
import type { PoolGate } from '../api/core/gate.js';
import type { Timing } from '../api/core/sleep.js';
import type { BulkKind, ResultLine, RunRecorder, Send } from './types.js';

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
  /** The input changed since its batch last ran: send its changed and new lines, replay the rest. */
  continueBatch?: boolean;
  /** Import the file as a new batch (of its path and content). */
  newBatch?: boolean;
  /** Command-line values that win over each line's (already typed). */
  overrides?: Readonly<Record<string, unknown>>;
  /** Overrides left out of the keys (a time typed relative to now). */
  unkeyed?: readonly string[];
  /** Values a line may leave out, already typed; the line's own and `overrides` win over them. */
  defaults?: Readonly<Record<string, unknown>>;
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
  concurrency?: number;
  retries?: number;
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
  /** The physical lines read that were not lines of work (header, blank, continuations of a record). */
  input: InputTally;
}

/** The input changed since its batch last ran, and neither --continue nor --new-batch was given: nothing was sent. */
export class BatchChangedError extends UsageError<'--from'> {
  constructor(
    readonly input: string,
    readonly batch: string,
    readonly confirmed: number,
  ) {
    super(`${input === '-' ? 'standard input' : input} changed since batch ${batch} last ran (${confirmed} lines confirmed); nothing was sent`, '--from');
  }
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const format = opts.input === '-' ? (opts.format ?? 'ndjson') : inputFormat(opts.input, opts.format);
  const plan = await planBatch({ kind: opts.kind, input: opts.input, stdin: opts.stdin, dataDir: opts.dataDir, batchId: opts.batchId, newBatch: opts.newBatch, signal: opts.signal });
  const reading = { bareIds: opts.kind !== 'create', signal: opts.signal, name: opts.input, delimiter: opts.delimiter, columns: opts.columns };
  // A CSV header it refuses (unknown columns) refuses the run before its journal is written.
  if (format === 'csv') await checkHeader(readInput(plan.source, format, reading));
  const journal =
    opts.journal === false
      ? undefined
      : await JournalFile.open({ dir: opts.dataDir, target: opts.target, batch: plan.journalBatch, input: plan.path ?? '-', kind: opts.kind, ...(opts.where === undefined ? {} : { where: opts.where }) });
  try {
    const ctx = {
      kind: opts.kind,
      batch: plan.name,
      overrides: opts.overrides ?? {},
      unkeyed: opts.unkeyed ?? [],
      defaults: opts.defaults ?? {},
      now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
      journal,
      // A re-run meets about as many requests as its journal confirmed: sized for them, the table never grows.
      occurrences: new Occurrences(journal?.done.size),
    };
    const lines = (tally?: InputTally) => readInput(plan.source, format, { ...reading, tally });
    const tally = newTally();
    const { earlier, content } = await checkInput(journal, plan, opts, () => surveyInput(lines(), ctx));
    const fresh = journal !== undefined && journal.lastInput === undefined && journal.done.size === 0 && journal.previous.size === 0;
    const legacy = fresh ? await LegacyJournals.find(opts.dataDir, opts.target, opts.kind, { path: plan.path, batchId: opts.batchId, sha256: plan.sha256 }) : undefined;
    // A relative time written in the input resolves against the batch's first run, whichever run sends its line.
    const fileNow = journal?.lastInput?.now ?? ctx.now();
    journal?.recordRunState({ t: 'input', sha256: plan.sha256, ...(content === undefined ? {} : { content }), now: fileNow });
    const digest = new ContentDigest();
    const edited = new Map<number, string>();
    const summary = await runBulk({
      items: workItems(lines(tally), { ...ctx, legacy, earlier, fileNow }, digest),
      send: opts.send,
      emit: (result) => {
        if (result.earlier_entry_id !== undefined) edited.set(result.line, result.earlier_entry_id);
        return opts.emit(result);
      },
      ...(journal === undefined ? {} : { recorder: journalRecorder(journal) }),
      concurrency: opts.concurrency,
      retries: opts.retries,
      rate: opts.rate,
      signal: opts.signal,
      abandon: opts.abandon,
      gate: opts.gate,
      timing: opts.timing,
      random: opts.random,
      window: opts.window,
    });
    const read = summary.cancelled ? undefined : digest.digest();
    journal?.recordRunState({ t: 'run', created: summary.created, replayed: summary.alreadyDone, failed: summary.failed, invalid: summary.invalid, cancelled: summary.cancelledLines, at: Date.now(), ...(read === undefined ? {} : { content: read }) });
    if (!summary.cancelled) {
      // Every line was read: what the journals of the released version knew is in this one now.
      legacy?.remove();
      // Every line confirmed: the next run reads the compact form instead of every record.
      await journal?.compactDone();
    }
    return { ...summary, batch: plan.name, edited, input: tally };
  } finally {
    journal?.close();
  }
}

/** Reads as far as the first lines after the header: a header the reader refuses throws here. */
async function checkHeader(lines: AsyncGenerator<unknown>): Promise<void> {
  await lines.next();
  await lines.return(undefined);
}

/**
 * An input whose bytes differ from what its batch last read is read once first: a file only
 * re-saved (other quoting, line endings, column order) has the same content digest and runs as
 * unchanged; a changed one is refused unless continued (or imported as a new batch, which has no
 * journal yet), and its edited lines are found.
 */
async function checkInput(journal: Journal | undefined, plan: BatchPlan, opts: ImportOptions, survey: () => Promise<string>): Promise<{ earlier: Map<number, string | undefined>; content: string | undefined }> {
  const none = { earlier: new Map<number, string | undefined>(), content: undefined };
  if (journal === undefined) return none;
  const last = journal.lastInput;
  const ran = last !== undefined || journal.done.size > 0 || journal.previous.size > 0;
  if (!ran || last?.sha256 === plan.sha256) return none;
  const content = await survey();
  const known = [last?.content, journal.lastRun?.content].filter((digest) => digest !== undefined);
  if (known.includes(content)) return { earlier: new Map(), content };
  if (!opts.continueBatch) throw new BatchChangedError(opts.input, plan.name, journal.done.size);
  return { earlier: journal.done.unseen(), content };
}

const decoder = new TextDecoder();

/** Records into a journal what the runner sends and learns. */
export function journalRecorder(journal: Journal): RunRecorder {
  return {
    sent(item) {
      const key = item.request.idempotencyKey;
      journal.recordSent({
        line: item.line,
        key,
        ...(item.identity === undefined || item.identity === key ? {} : { rid: item.identity }),
        method: item.request.method,
        path: item.request.path,
        body: decoder.decode(item.request.body),
        at: Date.now(),
        ...(item.parcel === undefined ? {} : { parcel: item.parcel }),
      });
    },
    flush: () => journal.flush(),
    done: (item, status, entryId) => journal.recordDone(item.identity ?? item.request.idempotencyKey, item.line, status, entryId),
    rejected: (item, status, code) => journal.recordRejected(item.identity ?? item.request.idempotencyKey, item.line, status, code),
  };
}
