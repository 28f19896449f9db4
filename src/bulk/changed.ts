import { isoSeconds } from '../schemas/time-text.js';
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
  /** Lines whose request the batch's journal holds confirmed: replayed by --continue, created again by --new-batch. */
  matched: number;
  /** Lines whose request it holds sent but not confirmed: resent with their key by --continue, sent anew by --new-batch. */
  unconfirmed: number;
  /** Of the other lines, edited versions of the batch's line at the same number (pairing.ts). */
  edited: number;
}

/** The input changed since its batch last ran, and neither --continue nor --new-batch was given: nothing was sent. */
export class BatchChangedError extends UsageError<'--from'> {
  constructor(readonly change: BatchChange) {
    super(changedMessage(change, isoSeconds(change.lastRan / 1000)), '--from');
  }

  /** create: lines of the input that match what batches on the target created, the path's included (what `--new-batch` would meet: it skips them). */
  matchedLines = 0;
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;

/** `when`: the time of its last run as the reader's clock shows it. */
export function changedMessage(change: BatchChange, when: string): string {
  const what = change.input === '-' ? 'standard input' : change.input;
  return `${what} changed since batch ${change.batch} last ran (${when}): ${change.matched} of ${lines(change.lines)} match it; nothing was sent`;
}

/**
 * The ways on, the recommended one first. A line of the batch's journal is replayed (or, left
 * unconfirmed, resent with its key) by --continue and sent anew by --new-batch: when any line is
 * in the journal, continuing is the way that creates nothing twice; when none is, the input is
 * another one altogether and starts a batch of its own (continuing would send every line into the
 * old batch's journal). `command(flag)` is the user's command line with that flag; standard input
 * has no --new-batch (another --batch-id is its new batch). `createdBefore`: lines that batches on
 * the target created (the created index): as a new batch they would be met again, so its command
 * (`command('--new-batch')`) skips them with --skip-created.
 */
export function changedHint(change: BatchChange, command: (flag: '--continue' | '--new-batch') => string, createdBefore = 0): string {
  const known = change.matched + change.unconfirmed;
  const fresh = change.lines - known;
  const edited = change.edited === 0 ? '' : ` (${change.edited} of them edited since that batch created them at the same line: their earlier parcels stay as they are)`;
  const newLines = known === 0 ? `all ${lines(fresh)}` : `the ${fresh} new line${fresh === 1 ? '' : 's'}`;
  const resent = change.unconfirmed === 0 ? '' : `, resends the ${change.unconfirmed} it left unconfirmed with the same keys`;
  const replayed = change.matched === 0 ? '' : ` and replays the ${change.matched}`;
  const continued = `\`${command('--continue')}\` sends ${newLines}${edited}${known === 0 ? ` into batch ${change.batch}` : `${resent}${replayed}`}`;
  const again = change.matched === 0 ? '' : ` (the ${change.matched} would be created again)`;
  const imports =
    createdBefore > 0
      ? `imports it as a new batch and skips the ${lines(createdBefore)} that batches on this target created (\`--create-again\` instead of \`--skip-created\` creates them again)`
      : `imports all ${lines(change.lines)} as a new batch${again}`;
  const newBatch = change.input === '-' ? `another \`--batch-id\` ${imports}` : `\`${command('--new-batch')}\` ${imports}`;
  return known === 0 ? `nothing in it matches that batch: ${newBatch} (recommended); ${continued}` : `${continued} (recommended: nothing is created twice); ${newBatch}`;
}
