import { styles } from '../../io/colour.js';
import { sanitize } from '../../io/sanitize.js';
import type { IO } from '../../io/streams.js';
import { elapsedText } from '../../schemas/time-text.js';
import { writeOut } from '../../io/streams.js';
import type { InputTally } from '../input.js';
import type { RepeatReport } from '../repeats.js';
import type { RunSummary } from '../runner.js';
import type { FailedLines } from './failed-lines.js';

/**
 * The one summary of a bulk run or an outbox flush, on stderr: every line (entry) counted once,
 * under its outcome (src/schemas/line-outcome.ts), the counts adding up to the lines read; then
 * the warnings, the failed lines at a terminal, where the results are, and what to run next.
 */

/** What both summaries hold: the counts, and how the failed lines and the results were shown. */
interface SummaryCommon {
  counts: RunSummary;
  /** The failed lines to list (at a terminal). */
  failed?: FailedLines;
  /** Where the result lines went instead of the terminal. */
  resultsFile?: string;
  /** What to run next, each a sentence with its backquoted command, shown as hints. */
  hints?: ReadonlyArray<string | undefined>;
}

/** A bulk run's summary: its counts add up to the lines its reader read. */
export interface RunSummaryText extends SummaryCommon {
  /** The lines its reader read that are no record (header, blank, continuation), and all it read. */
  read: InputTally;
  outbox?: never;
  /** Stopped before the end: the input's lines it never reached (not sent). */
  notReached: number;
  /** The batch id (in full). */
  batch: string;
  /** Lines sent as new requests although their earlier version had created a parcel: line → that parcel. */
  edited?: ReadonlyMap<number, string>;
  /** Lines repeating an earlier line's parcel and status (events, attempts): sent, or skipped (`skipped`). */
  repeats?: RepeatReport | undefined;
}

/** An outbox flush's summary: its counts add up to the entries it took. */
export interface FlushSummaryText extends SummaryCommon {
  /** What it created, by kind (`1 status event`), and what still waits… */
  outbox: { kinds: readonly string[]; left: number; notTried: number };
  read?: never;
  edited?: never;
  repeats?: never;
}

export type SummaryText = RunSummaryText | FlushSummaryText;

/** Lines named one by one in a warning, at most. */
const NAMED = 5;

export async function renderRunSummary(io: IO, summary: SummaryText): Promise<void> {
  const s = styles(io.stderrColour);
  let text = `${headLine(summary, s)}\n`;
  const edited = [...(summary.edited ?? [])];
  if (edited.length > 0) {
    const named = edited.slice(0, NAMED).map(([line, id]) => `line ${line} (was ${sanitize(id)})`);
    const more = edited.length > NAMED ? ` and ${edited.length - NAMED} more` : '';
    const what = edited.length === 1 ? 'line was sent as a new request; what its earlier version' : 'lines were sent as new requests; what their earlier versions';
    text += s.yellow(`! ${edited.length} edited ${what} created is unchanged: ${named.join(', ')}${more}\n`);
  }
  const repeats = summary.repeats;
  if (repeats !== undefined && repeats.count > 0) {
    const named = `${repeats.count === 1 ? 'line' : 'lines'} ${repeats.lines.slice(0, NAMED).join(', ')}${repeats.count > NAMED ? ` and ${repeats.count - NAMED} more` : ''}`;
    const which = repeats.count === 1 ? "1 line repeats an earlier line's" : `${repeats.count} lines repeat an earlier line's`;
    text += s.yellow(`! ${which} parcel and status (${named}): ${repeats.oncePerParcel ? 'each sent once, the repeats skipped' : 'sent again'}\n`);
  }
  const failed = summary.failed;
  if (failed !== undefined && failed.first.length > 0) {
    text += `Failed ${failed.count === 1 ? 'line' : 'lines'}:\n`;
    for (const line of failed.first) text += `  line ${line.line}${line.end_line === undefined ? '' : `-${line.end_line}`}: ${sanitize(line.reason)}\n`;
    const more = failed.count - failed.first.length;
    if (more > 0) text += `  and ${more} more${summary.resultsFile === undefined ? '' : `: see ${sanitize(summary.resultsFile)}`}\n`;
  }
  if (summary.resultsFile !== undefined) text += `Results: ${sanitize(summary.resultsFile)}\n`;
  for (const hint of summary.hints ?? []) if (hint !== undefined) text += s.dim(`Hint: ${sanitize(hint)}`) + '\n';
  await writeOut(io.stderr, text);
}

/** `✓ 5 lines read: 3 created, 0 already done, 1 skipped (1 header), 1 failed (1 invalid) in 0.4 s, 12 lines/s (batch …)`. */
function headLine(summary: SummaryText, s: ReturnType<typeof styles>): string {
  const c = summary.counts;
  if (summary.outbox !== undefined) {
    const outbox = summary.outbox;
    const notSent = c.notSent + outbox.notTried;
    const parts = countParts(c, c.skipped, notSent, outbox, skippedParts(c, 0));
    const total = c.created + c.replayed + c.alreadyDone + c.queued + c.skipped + c.failed + notSent;
    const head = c.failed > 0 || notSent > 0 ? s.yellow('!') : s.green('✓');
    return `${head} Outbox: ${total} ${total === 1 ? 'entry' : 'entries'}: ${parts.join(', ')}; ${outbox.left} still waiting in ${elapsedText(c.elapsedMs)}`;
  }
  const read = summary.read;
  const notSent = c.notSent + summary.notReached;
  const skipped = c.skipped + read.header + read.blank + read.continuation;
  const parts = countParts(c, skipped, notSent, undefined, [...noRecordParts(read), ...skippedParts(c, summary.repeats?.skipped ?? 0)]);
  let subject: string;
  if (c.cancelled || notSent > 0) {
    // Stopped before the end (Ctrl-C, or the service out of reach): what was done of how much.
    const total = c.created + c.replayed + c.alreadyDone + c.queued + skipped + c.failed + notSent;
    subject = `${c.cancelled ? s.yellow('Interrupted') : `${s.yellow('!')} Stopped`} after ${total - notSent} of ${total} lines: ${parts.join(', ')}`;
  } else {
    // The reader's own count of the lines it read: the counts add up to it (a line lost between the two would show).
    subject = `${c.failed > 0 ? s.yellow('!') : s.green('✓')} ${read.physical} lines read: ${parts.join(', ')}`;
  }
  return `${subject} in ${elapsedText(c.elapsedMs)}, ${Math.round(c.rate)} lines/s (batch ${sanitize(summary.batch)})`;
}

/** Each outcome's count: `3 created, 0 already done, 1 skipped (1 header), 1 failed (1 invalid)`. */
function countParts(c: RunSummary, skipped: number, notSent: number, outbox: FlushSummaryText['outbox'] | undefined, why: readonly string[]): string[] {
  const parts = [`${c.created} created${outbox !== undefined && outbox.kinds.length > 0 ? ` (${outbox.kinds.join(', ')})` : ''}`];
  if (c.replayed > 0) parts.push(`${c.replayed} replayed by the service`);
  if (outbox === undefined || c.alreadyDone > 0) parts.push(`${c.alreadyDone} already done`);
  if (c.queued > 0) parts.push(`${c.queued} queued`);
  if (skipped > 0) parts.push(`${skipped} skipped (${why.join(', ')})`);
  parts.push(c.invalid > 0 ? `${c.failed} failed (${c.invalid} invalid)` : `${c.failed} failed`);
  if (notSent > 0) parts.push(`${notSent} not sent${outbox !== undefined && outbox.notTried > 0 ? ' (the service is still out of reach)' : ''}`);
  if (c.ignoredFields > 0) parts.push(`${c.ignoredFields} fields ignored`);
  return parts;
}

/** The lines a reader read that are no record: `1 header, 2 blank, 1 continuation`. */
function noRecordParts(read: InputTally): string[] {
  const parts: string[] = [];
  if (read.header > 0) parts.push(`${read.header} header`);
  if (read.blank > 0) parts.push(`${read.blank} blank`);
  if (read.continuation > 0) parts.push(`${read.continuation} continuation`);
  return parts;
}

/** Why records were skipped: `3 created by an earlier batch, 2 repeats, 1 by rule`. */
function skippedParts(c: RunSummary, repeats: number): string[] {
  const parts: string[] = [];
  if (c.matched > 0) parts.push(`${c.matched} created by an earlier batch`);
  if (repeats > 0) parts.push(`${repeats} ${repeats === 1 ? 'repeat' : 'repeats'}`);
  if (c.skipped > c.matched + repeats) parts.push(`${c.skipped - c.matched - repeats} by rule`);
  return parts;
}
