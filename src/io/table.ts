/**
 * Tables in two forms (STYLE.md, pattern 5): on a TTY an aligned, borderless table like gh and
 * kubectl print (cli-table3, headers bold with colour, fitted to the terminal width by truncating
 * the widest columns with "…"); off a TTY plain tab-separated rows with a header line.
 */
import Table from 'cli-table3';
import { styles, stripAnsi } from './colour.js';
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
export const GAP = 2;
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

function oneLine(text: string): string {
  return text.replace(/\r\n|[\t\r\n]/g, ' ');
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Columns a string occupies on a terminal (ANSI stripped, wide CJK/emoji count 2, marks 0). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of stripAnsi(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
    if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

/**
 * Widths for each column: the natural widths, or, when they do not fit `columns`, the widest
 * columns cut down to a common cap so the table fits (narrow columns keep their width).
 */
export function columnWidths(headers: string[], rows: string[][], columns?: number): number[] {
  const natural = headers.map((h) => displayWidth(oneLine(h)));
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

export function renderTable(headers: string[], rows: string[][], opts: TableOptions): string {
  if (!opts.tty) return renderTsv(headers, rows);
  const s = styles(opts.colour);
  const widths = opts.widths ?? columnWidths(headers, rows, opts.columns);
  const natural = opts.widths ? undefined : columnWidths(headers, rows);
  const needsLimit = natural === undefined || natural.some((w, i) => w > (widths[i] ?? w));
  const table = new Table({
    head: opts.header === false ? [] : headers.map((h) => s.bold(oneLine(h))),
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
  const out = lines.filter((line) => stripAnsi(line) !== '');
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
