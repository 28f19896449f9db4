import type { ResultLine } from './types.js';
import { sanitize } from '../io/sanitize.js';
import { writeOut } from '../io/streams.js';

/**
 * A bulk run's result lines: NDJSON on stdout, or in the results file at a terminal (the summary:
 * summary/render.ts; the bar: progress.ts).
 */

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

/** `out`: stdout, or the results file at a terminal. */
export function resultWriter(out: NodeJS.WritableStream): ResultWriter {
  let text = '';
  let scheduled = false;
  /** The last write, while the stream has not taken it (backpressure) or it failed. */
  let writing: Promise<void> | undefined;
  const flush = (): Promise<void> | undefined => {
    scheduled = false;
    if (text === '') return writing;
    const chunk = text;
    text = '';
    const written = (writing ?? Promise.resolve()).then(() => writeOut(out, chunk));
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
