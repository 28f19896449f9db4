import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { openOwnFile } from '../../config/own-file.js';

/**
 * A run's result lines at a terminal: written to a file beside the batch's journal (its latest run's
 * results, NDJSON as they would be on stdout) instead of scrolling past. Opened with the one safe
 * opener: no symbolic link, a regular file of the user's own.
 */

/** `journals/<target>/<batch>.ndjson` → `journals/<target>/<batch>.results.jsonl` (not `.ndjson`: a journal's ending). */
export function resultsFilePath(journalPath: string): string {
  return `${journalPath.replace(/\.ndjson$/, '')}.results.jsonl`;
}

export interface ResultsFile {
  path: string;
  /** What the result writer writes to. */
  stream: NodeJS.WritableStream;
  /** Once the writer has ended: closes the file. */
  close(): Promise<void>;
}

/** The file, emptied, for this run's results. */
export function openResultsFile(path: string): ResultsFile {
  const stream = createWriteStream('', { fd: openOwnFile(path, 'truncate') });
  return {
    path,
    stream,
    async close() {
      stream.end();
      await finished(stream);
    },
  };
}
