import type { CommandLine } from '../../hint/hint.js';
import { sameCommand } from '../../hint/hint.js';
import type { BulkRunOptions } from '../flags.js';
import type { ImportSummary } from '../import.js';
import { linesDone } from '../runner.js';

/**
 * What a bulk run's summary tells the user to run next: always the user's own command line
 * (sameCommand), naming the batch in full where the command line alone would not find it again
 * (standard input without --batch-id, or --new-batch).
 */

function namesItsBatch(opts: BulkRunOptions): boolean {
  return !((opts.from === '-' && opts.batchId === undefined) || opts.newBatch);
}

/**
 * After a run with failed lines: the command that runs the batch again once they are fixed — the
 * user's own, continuing this batch. Lines unchanged are replayed.
 */
export function fixAndRerunHint(opts: BulkRunOptions, summary: ImportSummary, line: CommandLine): string | undefined {
  if (summary.failed === 0) return undefined;
  const command = namesItsBatch(opts)
    ? sameCommand(line, { drop: ['--continue'], add: ['--continue'] })
    : sameCommand(line, { drop: ['--continue', '--new-batch', '--batch-id'], add: ['--batch-id', summary.batch, '--continue'] });
  const what = opts.from === '-' ? 'the same input with those lines fixed' : `it once those lines are fixed in ${opts.from}`;
  return `run ${what}: \`${command}\` (it sends the fixed lines and replays the others)`;
}

/**
 * After Ctrl-C: the command that resumes the batch. It sends the lines not yet sent (those left
 * without an answer with their keys and bytes, so nothing is created twice) and replays the lines done.
 */
export function resumeHint(opts: BulkRunOptions, summary: ImportSummary, line: CommandLine): string {
  const command = namesItsBatch(opts) ? sameCommand(line) : sameCommand(line, { drop: ['--new-batch', '--batch-id'], add: ['--batch-id', summary.batch] });
  const notSent = summary.notSent + summary.notReached;
  const read = summary.input;
  const done = linesDone(summary) - summary.notSent + read.header + read.blank + read.continuation;
  const run = opts.from === '-' ? `pipe the same input to \`${command}\`` : `run \`${command}\``;
  return `${run} to send the ${notSent} ${notSent === 1 ? 'line' : 'lines'} not yet sent (the ${done} done are not sent again)`;
}

/** Lines repeating an earlier line's parcel and status were sent again: the same command with --once-per-parcel sends each once. */
export function oncePerParcelHint(opts: BulkRunOptions, summary: ImportSummary, line: CommandLine): string | undefined {
  if (summary.repeats === undefined || summary.repeats.count === 0 || opts.oncePerParcel) return undefined;
  return `next time, \`${sameCommand(line, { drop: ['--once-per-parcel'], add: ['--once-per-parcel'] })}\` sends a parcel's status once (a repeat becomes a skipped line)`;
}
