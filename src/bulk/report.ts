import type { ResultLine } from './types.js';
import type { RunSummary } from './runner.js';
import { styles } from '../io/colour.js';
import type { ProgressLine } from '../io/progress.js';
import { sanitize } from '../io/sanitize.js';
import type { IO } from '../io/streams.js';
import { writeOut } from '../io/streams.js';

/** What a bulk run or an outbox flush shows: its result lines on stdout and its summary on stderr (the bar: progress.ts). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A result as its NDJSON line: the common shapes by template (a UUID needs no escaping), the rest as sanitised JSON. */
export function resultText(result: ResultLine): string {
  if (result.ok && result.error === undefined && result.earlier_entry_id === undefined && result.matched === undefined && result.reason === undefined && result.end_line === undefined && (result.entry_id === undefined || UUID.test(result.entry_id))) {
    const id = result.entry_id === undefined ? '' : `,"entry_id":"${result.entry_id}"`;
    return `{"line":${result.line},"ok":true,"outcome":"${result.outcome}"${id}}`;
  }
  return sanitize(JSON.stringify(result));
}

/** Result lines gathered into one write per turn of the event loop (or per 16 KiB). */
export interface ResultWriter {
  /** A promise only while stdout is full: the bulk engine then holds the pool back. */
  write(result: ResultLine): void | Promise<void>;
  /** Writes what is gathered and waits for it. */
  end(): Promise<void>;
}

const RESULT_CHUNK = 16 * 1024;

/** `screen`: the progress bar on the same terminal as stdout, taken off while results are written. */
export function resultWriter(io: IO, screen?: Pick<ProgressLine, 'above'>): ResultWriter {
  let text = '';
  let scheduled = false;
  /** The last write, while the stream has not taken it (backpressure) or it failed. */
  let writing: Promise<void> | undefined;
  const flush = (): Promise<void> | undefined => {
    scheduled = false;
    if (text === '') return writing;
    const chunk = text;
    text = '';
    const written = (writing ?? Promise.resolve()).then(() => (screen ? screen.above(() => writeOut(io.stdout, chunk)) : writeOut(io.stdout, chunk)));
    writing = written;
    // Settled: no longer holding anyone back. A failure stays in `writing` for the next caller.
    written.then(
      () => {
        if (writing === written) writing = undefined;
      },
      () => undefined,
    );
    return written;
  };
  return {
    write(result) {
      text += `${resultText(result)}\n`;
      if (text.length >= RESULT_CHUNK) return flush();
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return writing;
    },
    async end() {
      await flush();
    },
  };
}

export interface BulkSummaryText extends RunSummary {
  /** A bulk run's batch id (in full); absent for an outbox flush. */
  batch?: string;
  /** Lines sent as new requests although their earlier version had created a parcel: line → that parcel. */
  edited?: ReadonlyMap<number, string>;
  /** What to run next (a backticked command), shown as a hint. */
  hint?: string | undefined;
  /** An outbox flush: entries still waiting… */
  left?: number;
  /** …of which not tried, because an earlier one still could not be delivered. */
  notTried?: number;
}

/** Edited lines named one by one in the summary, at most. */
const EDITED_SHOWN = 5;

/**
 * One line on stderr: created, already done, failed (invalid among them), cancelled, elapsed, rate
 * (and what is left, for a flush); then a warning for lines edited after they created a parcel, and the hint.
 */
export async function renderBulkSummary(io: IO, summary: BulkSummaryText): Promise<void> {
  const s = styles(io.stderrColour);
  const failed = summary.invalid > 0 ? `${summary.failed} failed (${summary.invalid} invalid)` : `${summary.failed} failed`;
  const parts = [`${summary.created} created`];
  if (summary.replayed > 0) parts.push(`${summary.replayed} replayed by the service`);
  parts.push(`${summary.alreadyDone} already done`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  parts.push(failed);
  if (summary.cancelledLines > 0) parts.push(`${summary.cancelledLines} cancelled`);
  if (summary.left !== undefined) parts.push(`${summary.left} still waiting${summary.notTried ? ` (${summary.notTried} not tried: the service is still out of reach)` : ''}`);
  if (summary.ignoredFields > 0) parts.push(`${summary.ignoredFields} fields ignored`);
  const timing = `${(summary.elapsedMs / 1000).toFixed(1)} s, ${Math.round(summary.rate)} lines/s`;
  const head = summary.cancelled ? s.yellow('Interrupted: ') : summary.failed > 0 ? s.yellow('! ') : s.green('✓ ');
  const batch = summary.batch === undefined ? '' : ` (batch ${summary.batch})`;
  let text = `${head}${parts.join(', ')} in ${timing}${sanitize(batch)}\n`;
  const edited = [...(summary.edited ?? [])];
  if (edited.length > 0) {
    const named = edited.slice(0, EDITED_SHOWN).map(([line, id]) => `line ${line} (was ${sanitize(id)})`);
    const more = edited.length > EDITED_SHOWN ? ` and ${edited.length - EDITED_SHOWN} more` : '';
    const what = edited.length === 1 ? 'line was sent as a new request; what its earlier version' : 'lines were sent as new requests; what their earlier versions';
    text += s.yellow(`! ${edited.length} edited ${what} created is unchanged: ${named.join(', ')}${more}\n`);
  }
  if (summary.hint !== undefined) text += s.dim(`Hint: ${sanitize(summary.hint)}`) + '\n';
  await writeOut(io.stderr, text);
}
