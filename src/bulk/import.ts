import { createReadStream } from 'node:fs';
import type { Journal } from '../config/journal.js';
import type { LineState } from '../config/journal-records.js';
import { DoneLines } from '../config/journal-done.js';
import { Journal as JournalFile } from '../config/journal.js';
import type { Clock } from '../schemas/time.js';
import { buildLine } from './build.js';
import type { InputFormat } from './input-format.js';
import { inputFormat } from './input-format.js';
import type { InputLine, InputSource } from './input.js';
import { readInput } from './input.js';
import { isPipedPath, refuseNonText } from './input-lines.js';
import { hashFile, lineKey } from './keys.js';
import type { RunSummary } from './runner.js';
import { runBulk } from './runner.js';
import { spoolInput } from './spool.js';
import type { PoolGate } from '../api/core/gate.js';
import type { Timing } from '../api/core/sleep.js';
import type { BulkKind, ResultLine, RunRecorder, Send, WorkItem } from './types.js';

/** A bulk run from a file or standard input: input → lines → journal-aware work items → runner. */

export interface ImportOptions {
  kind: BulkKind;
  /** A file path, or "-" for `stdin`. */
  input: string;
  stdin?: NodeJS.ReadableStream;
  format?: InputFormat;
  /** Sets the batch identity instead of the hash of the whole input. */
  batchId?: string;
  /** Command-line values that win over each line's (already typed). */
  overrides?: Readonly<Record<string, unknown>>;
  /** Values a line may leave out, already typed; the line's own and `overrides` win over them. */
  defaults?: Readonly<Record<string, unknown>>;
  /** The data directory: journals and the standard-input spool live here. */
  dataDir: string;
  /** Who the requests go to (profile + base URL, or the sandbox database): one journal per batch and target. */
  target: string;
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
  batch: string;
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const format = opts.input === '-' ? (opts.format ?? 'ndjson') : inputFormat(opts.input, opts.format);
  let source: InputSource = opts.input;
  let batch = opts.batchId;
  // Standard input, or a path that can be read only once (a pipe, a device), is spooled unless a batch id is given.
  const piped = opts.input === '-' ? (opts.stdin ?? process.stdin) : isPipedPath(opts.input) ? createReadStream(opts.input) : undefined;
  if (piped !== undefined) {
    if (batch === undefined) {
      const spooled = await spoolInput(piped, opts.dataDir, opts.input, opts.signal);
      source = spooled.path;
      batch = spooled.hash;
    } else source = piped;
  } else {
    await refuseNonText(opts.input);
    batch ??= await hashFile(opts.input, opts.signal);
  }

  const journal =
    opts.journal === false
      ? undefined
      : await JournalFile.open({ dir: opts.dataDir, target: opts.target, batch: `${opts.kind}-${batch}`, input: opts.input, kind: opts.kind });
  try {
    const summary = await runBulk({
      items: workItems(readInput(source, format, { bareIds: opts.kind !== 'create', signal: opts.signal, name: opts.input }), {
        kind: opts.kind,
        batch,
        overrides: opts.overrides ?? {},
        defaults: opts.defaults ?? {},
        now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
        previous: journal?.previous ?? new Map(),
        done: journal?.done ?? DoneLines.empty(),
      }),
      send: opts.send,
      emit: opts.emit,
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
    // Every line confirmed: the next run reads the compact form instead of every record.
    if (!summary.cancelled) await journal?.compactDone();
    return { ...summary, batch };
  } finally {
    journal?.close();
  }
}

interface ItemContext {
  kind: BulkKind;
  batch: string;
  overrides: Readonly<Record<string, unknown>>;
  defaults: Readonly<Record<string, unknown>>;
  now: Clock;
  previous: ReadonlyMap<number, LineState>;
  done: DoneLines;
}

/**
 * Lines are built (and journaled) this many at a time: a read chunk holds ~750 lines, and building
 * all of them before the first is sent kept the service idle for the first ~50 ms of a run.
 */
const BUILD_SLICE = 32;

/**
 * What to do with each line: replay what an earlier run confirmed, resend what it left uncertain
 * with its journaled key and bytes, build the rest afresh.
 */
async function* workItems(batches: AsyncIterable<InputLine[]>, ctx: ItemContext): AsyncGenerator<WorkItem[]> {
  for await (const batch of batches) {
    for (let at = 0; at < batch.length; at += BUILD_SLICE) yield batch.slice(at, at + BUILD_SLICE).map((input) => workItem(input, ctx));
  }
}

function workItem(input: InputLine, ctx: ItemContext): WorkItem {
  const key = lineKey(ctx.batch, input.line, input.bytes);
  if (ctx.done.has(input.line, key)) return { kind: 'replayed', line: input.line, entryId: ctx.done.entryId(input.line) };
  const earlier = ctx.previous.get(input.line)?.sent;
  if (earlier?.key === key) {
    return {
      kind: 'send',
      line: input.line,
      parcel: earlier.parcel,
      ignored: 0,
      journaled: true,
      request: { method: 'POST', path: earlier.path, body: Buffer.from(earlier.body, 'utf8'), idempotencyKey: earlier.key },
    };
  }
  const built = buildLine(input, ctx);
  if (!built.ok) return { kind: 'invalid', line: built.line, field: built.field, message: built.message };
  return { kind: 'send', line: built.line, request: built.request, parcel: built.parcel, ignored: built.ignored, journaled: false };
}

const decoder = new TextDecoder();

/** Records into a journal what the runner sends and learns. */
export function journalRecorder(journal: Journal): RunRecorder {
  return {
    sent(item) {
      journal.recordSent({
        line: item.line,
        key: item.request.idempotencyKey,
        method: item.request.method,
        path: item.request.path,
        body: decoder.decode(item.request.body),
        at: Date.now(),
        ...(item.parcel === undefined ? {} : { parcel: item.parcel }),
      });
    },
    flush: () => journal.flush(),
    done: (line, status, entryId) => journal.recordDone(line, status, entryId),
    rejected: (line, status, code) => journal.recordRejected(line, status, code),
  };
}
