/**
 * The piped form of a table: tab-separated, one header line, no colour, no alignment (gh's
 * pattern). Kept apart from table.ts so that piped output never loads string-width.
 */

import { sanitize } from './sanitize.js';

/** One line of tab-separated cells; each cell is sanitised, so neither a tab nor an escape sequence gets through. */
export function tsvLine(cells: string[]): string {
  return cells.map(sanitize).join('\t') + '\n';
}

export function renderTsv(headers: string[], rows: string[][]): string {
  let out = headers.length > 0 ? tsvLine(headers) : '';
  for (const row of rows) out += tsvLine(row);
  return out;
}
