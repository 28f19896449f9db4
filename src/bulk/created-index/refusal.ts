import { UsageError } from '../../errors.js';
import type { CommandLine } from '../../hint/hint.js';
import { sameCommand } from '../../hint/hint.js';
import { isoSeconds } from '../../schemas/time-text.js';
import type { BatchMatch, EarlierMatches, MatchedLinesChoice } from './match.js';

/**
 * The refusals of a `create --from` whose lines match what earlier batches on the target created:
 * a copy (only --create-again passes it) and lines matching here and there (--skip-created,
 * --create-again, or the profile's bulk_matched_lines). Thrown by the run without hints; the
 * command adds them from the user's own command line (`withHints`).
 */

/** Where a batch came from and when it ran, as a refusal names it. */
export function batchText(match: BatchMatch): string {
  const when = match.batch.at > 0 ? `, ran ${isoSeconds(Math.floor(match.batch.at / 1000))}` : '';
  return `batch ${match.id} (${match.batch.input}${when})`;
}

function percent(part: number, whole: number): string {
  return `${Math.floor((100 * part) / Math.max(1, whole))}%`;
}

function inputName(input: string): string {
  return input === '-' ? 'standard input' : input;
}

function linesText(count: number): string {
  return `${count} line${count === 1 ? '' : 's'}`;
}

/** The input is a copy of an earlier batch (COPY_SHARE of its data lines match it, in order). */
export class CopyOfBatchError extends UsageError<'--from'> {
  constructor(
    readonly input: string,
    readonly match: BatchMatch,
    readonly dataLines: number,
  ) {
    super(
      `${inputName(input)} is a copy of ${batchText(match)}: ${match.inOrder} of its ${linesText(dataLines)} (${percent(match.inOrder, dataLines)}) match, in order, parcels that batch created on this target; nothing was sent`,
      '--from',
    );
  }

  withHints(line: CommandLine): UsageError {
    const again = sameCommand(line, { drop: ['--skip-created', '--create-again'], add: ['--create-again'] });
    return new UsageError(this.message, '--from', `\`${again}\` creates them all again`);
  }
}

/** Lines match what earlier batches created, here and there, and no choice was made for them. */
export class MatchedLinesError extends UsageError<'--from'> {
  constructor(
    readonly input: string,
    readonly matches: EarlierMatches,
  ) {
    super(
      `${matches.matched} of ${linesText(matches.dataLines)} of ${inputName(input)} match parcels earlier batches created on this target; nothing was sent`,
      '--from',
      undefined,
      matches.byBatch.map((match) => ({ field: linesText(match.lines), message: `match ${batchText(match)}` })),
    );
  }

  withHints(line: CommandLine): UsageError {
    const drop = ['--skip-created', '--create-again'] as const;
    const skip = sameCommand(line, { drop, add: ['--skip-created'] });
    const again = sameCommand(line, { drop, add: ['--create-again'] });
    return new UsageError(
      this.message,
      '--from',
      `\`${skip}\` skips those lines (each reported with the parcel it matched); \`${again}\` creates them again; or set bulk_matched_lines (skip, create) in the profile`,
      this.details,
    );
  }
}

/**
 * The refusal a run meets, if any: a copy unless a flag (or this batch's earlier run, by flag) said
 * what to do with its lines — a profile setting never passes it; other matched lines unless a
 * flag or the profile's setting chose.
 */
export function refusalOf(input: string, matches: EarlierMatches, chosen: { flag: 'skip' | 'create' | undefined; setting: MatchedLinesChoice }): UsageError | undefined {
  if (matches.copy !== undefined && chosen.flag === undefined) return new CopyOfBatchError(input, matches.copy, matches.dataLines);
  if (matches.matched > 0 && (chosen.flag ?? chosen.setting) === 'refuse') return new MatchedLinesError(input, matches);
  return undefined;
}
