import { UsageError } from '../errors.js';

/**
 * The refusal of an input changed since its batch last ran, with what each way on does to its
 * lines, in numbers (command.ts words the commands on the user's own command line).
 */

/** What a changed input holds compared with its batch (items.ts surveyInput). */
export interface BatchChange {
  /** As typed: a path, or "-" for standard input. */
  input: string;
  /** The batch id. */
  batch: string;
  /** When its last run ended (or, without a finished run, when the batch began): ms since the epoch. */
  lastRan: number;
  lines: number;
  /** Lines whose request the batch's journal holds: replayed by --continue, created again by --new-batch. */
  matched: number;
  /** Of the other lines, edited versions of the batch's line at the same number (pairing.ts). */
  edited: number;
}

/** The input changed since its batch last ran, and neither --continue nor --new-batch was given: nothing was sent. */
export class BatchChangedError extends UsageError<'--from'> {
  constructor(readonly change: BatchChange) {
    super(changedMessage(change, new Date(change.lastRan).toISOString()), '--from');
  }
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;

/** `when`: the time of its last run as the reader's clock shows it. */
export function changedMessage(change: BatchChange, when: string): string {
  const what = change.input === '-' ? 'standard input' : change.input;
  return `${what} changed since batch ${change.batch} last ran (${when}): ${change.matched} of ${lines(change.lines)} match it; nothing was sent`;
}

/**
 * The ways on, the recommended one first. A line of the batch's journal is replayed by --continue
 * and created again by --new-batch: when any line matches, continuing is the way that creates
 * nothing twice; when none does, the input is another one altogether and starts a batch of its own
 * (continuing would send the same lines into the old batch's journal). `command(flag)` is the
 * user's command line with that flag; standard input has no --new-batch (another --batch-id is its new batch).
 */
export function changedHint(change: BatchChange, command: (flag: '--continue' | '--new-batch') => string): string {
  const fresh = change.lines - change.matched;
  const edited = change.edited === 0 ? '' : ` (${change.edited} of them edited since that batch created them at the same line: their earlier parcels stay as they are)`;
  const newLines = change.matched === 0 ? `all ${lines(fresh)}` : `the ${fresh} new line${fresh === 1 ? '' : 's'}`;
  const continued = `\`${command('--continue')}\` sends ${newLines}${edited}${change.matched === 0 ? ` into batch ${change.batch}` : ` and replays the ${change.matched}`}`;
  const again = change.matched === 0 ? '' : ` (the ${change.matched} would be created again)`;
  const newBatch = change.input === '-' ? `another \`--batch-id\` imports all ${lines(change.lines)} as a new batch${again}` : `\`${command('--new-batch')}\` imports all ${lines(change.lines)} as a new batch${again}`;
  return change.matched === 0 ? `nothing in it matches that batch: ${newBatch} (recommended); ${continued}` : `${continued} (recommended: nothing is created twice); ${newBatch}`;
}
