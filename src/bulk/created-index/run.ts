import type { UsageError } from '../../errors.js';
import type { RunRecorder, SendItem } from '../types.js';
import type { EarlierMatches, MatchedLinesChoice, MatchOptions, SkippedItem } from './match.js';
import { withYoungGenerationGrowing } from '../heap.js';
import { findEarlierMatches } from './match.js';
import { refusalOf } from './refusal.js';
import { CreatedIndexWriter } from './writer.js';

/**
 * The created index in a `create --from` run: before anything is sent, the input's lines are
 * matched against what earlier batches on the target created (refused, skipped or created again,
 * as chosen); while it runs, every create confirmed goes into the index.
 */

export interface EarlierBatchOptions extends MatchOptions {
  /** The input as the user named it (a path, or "-"), for the refusals. */
  input: string;
  /** --skip-created or --create-again (or what this batch's earlier run chose by flag). */
  flag: 'skip' | 'create' | undefined;
  /** The profile's bulk_matched_lines (default refuse). */
  setting: MatchedLinesChoice;
}

export interface EarlierBatchesReport {
  /** Undefined when nothing earlier could match (the input was not read). */
  matches: EarlierMatches | undefined;
  /** What the run would refuse with (no hints: `withHints(commandLine)` on the error adds them), or undefined. */
  refusal: (UsageError & { withHints?: unknown }) | undefined;
  /** Lines the run would skip: identities created before, lines in the outbox, and matched lines when skipping. */
  skipped: number;
}

/**
 * For `--check` (nothing is sent, no journal is written): what a run of this input would refuse or
 * skip as matching earlier batches on the target. Call `report.matches?.close()` when done.
 */
export async function previewEarlierBatches(opts: EarlierBatchOptions): Promise<EarlierBatchesReport> {
  const matches = await withYoungGenerationGrowing(() => findEarlierMatches(opts));
  if (matches === undefined) return { matches, refusal: undefined, skipped: 0 };
  const refusal = refusalOf(opts.input, matches, opts);
  const skipping = (opts.flag ?? opts.setting) === 'skip';
  return { matches, refusal, skipped: matches.identity + matches.queued + (skipping ? matches.matched : 0) };
}

/** What a run's work items ask of the created index. */
export interface LineSkips {
  /** The skipped item of the line at input position `position` (0-based, in read order), or undefined to go on with it. */
  skip(position: number, line: number): SkippedItem | undefined;
  close(): void;
}

/** Matches the input (throws the refusal, if any) and returns how its lines are skipped. */
export async function matchEarlierBatches(opts: EarlierBatchOptions): Promise<LineSkips | undefined> {
  const { matches, refusal } = await previewEarlierBatches(opts);
  if (refusal !== undefined) {
    matches?.close();
    throw refusal;
  }
  if (matches === undefined) return undefined;
  const choice = opts.flag ?? opts.setting;
  return { skip: (position, line) => matches.skip(position, line, choice), close: () => matches.close() };
}

/** A recorder that also keeps each confirmed create (an item that carries its request's digest) in the index. */
export function indexingRecorder(recorder: RunRecorder, writer: CreatedIndexWriter): RunRecorder {
  return {
    sent: (item) => recorder.sent(item),
    flush() {
      recorder.flush();
      writer.flush();
    },
    done(item: SendItem, status, entryId) {
      recorder.done(item, status, entryId);
      const created = item.created;
      if (created !== undefined) writer.add({ ...created, line: item.line, entryId });
    },
    rejected: (item, status, code) => recorder.rejected(item, status, code),
  };
}

export { CreatedIndexWriter };
export type { MatchedLinesChoice };
