/**
 * Tables in two forms (STYLE.md, pattern 5): on a TTY an aligned, borderless table like gh and
 * kubectl print (cli-table3, headers bold with colour, fitted to the terminal width by truncating
 * the widest columns with "…"); off a TTY plain tab-separated rows with a header line.
 */
import Table from 'cli-table3';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { styles } from './colour.js';
import { oneLine, sanitize } from './sanitize.js';
import { renderTsv } from './tsv.js';

export interface TableOptions {
  tty: boolean;
  colour: boolean;
  /** Terminal width to fit a TTY table into. Default: no limit. */
  columns?: number;
  /** Fixed column widths (from `columnWidths`), e.g. to keep later batches of a stream aligned. */
  widths?: number[];
  /** Print the header line. Default true. */
  header?: boolean;
}

/** Space between columns of a TTY table. */
const GAP = 2;
/** A column is never squeezed below this many characters. */
const MIN_WIDTH = 4;

const CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** Columns a string occupies on a terminal (escape sequences count 0, wide CJK/emoji 2, combining marks 0). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * Widths for each column: the natural widths, or, when they do not fit `columns`, the widest
 * columns cut down to a common cap so the table fits (narrow columns keep their width).
 */
export function columnWidths(headers: string[], rows: string[][], columns?: number): number[] {
  const natural = headers.map((h) => displayWidth(sanitize(h)));
  for (const row of rows) {
    row.forEach((c, i) => {
      natural[i] = Math.max(natural[i] ?? 0, displayWidth(oneLine(c)));
    });
  }
  if (columns === undefined || columns <= 0) return natural;
  const available = columns - GAP * Math.max(0, natural.length - 1);
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  // Largest cap such that sum(min(w, cap)) <= available.
  let lo = MIN_WIDTH;
  let hi = Math.max(...natural, MIN_WIDTH);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const sum = natural.reduce((a, w) => a + Math.min(w, mid), 0);
    if (sum <= available) lo = mid;
    else hi = mid - 1;
  }
  return natural.map((w) => Math.min(w, lo));
}

/**
 * `headers` are raw keys (sanitised here); `rows` are cells already made safe by formatCell, whose
 * own styling (dim, bold) must survive.
 */
export function renderTable(headers: string[], rows: string[][], opts: TableOptions): string {
  if (!opts.tty) return renderTsv(headers, rows);
  const s = styles(opts.colour);
  const widths = opts.widths ?? columnWidths(headers, rows, opts.columns);
  const natural = opts.widths ? undefined : columnWidths(headers, rows);
  const needsLimit = natural === undefined || natural.some((w, i) => w > (widths[i] ?? w));
  const table = new Table({
    head: opts.header === false ? [] : headers.map((h) => s.bold(sanitize(h))),
    chars: CHARS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    ...(needsLimit ? { colWidths: widths.map((w) => Math.max(w, 1)), wordWrap: false, truncate: '…' } : {}),
  });
  for (const row of rows) table.push(headers.map((_, i) => oneLine(row[i] ?? '')));
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.replace(/\s+$/u, ''));
  // A borderless cli-table3 still emits empty lines where the borders would be.
  const out = lines.filter((line) => stripVTControlCharacters(line) !== '');
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

/**
 * For a person at a terminal when no --fields were given: drop columns empty in every row, then
 * keep columns from the left while they fit the terminal at their natural width (at least one).
 * Returns the indexes kept, so the caller can say how many were left out.
 */
export function fitColumns(headers: string[], rows: string[][], columns: number): number[] {
  const filled = headers.map((_, i) => i).filter((i) => rows.some((row) => (row[i] ?? '').trim() !== '' && row[i] !== '-'));
  const natural = columnWidths(headers, rows);
  const kept: number[] = [];
  let used = 0;
  for (const i of filled) {
    const width = (natural[i] ?? 0) + (kept.length > 0 ? GAP : 0);
    if (kept.length > 0 && used + width > columns) break;
    kept.push(i);
    used += width;
  }
  return kept;
}
