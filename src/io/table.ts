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
 * columns cut down to a common cap so the table fits (narrow columns keep their width). Columns
 * marked in `fixed` (ids) always keep their natural width.
 */
export function columnWidths(headers: string[], rows: string[][], columns?: number, fixed: readonly boolean[] = []): number[] {
  const natural = headers.map((h) => displayWidth(sanitize(h)));
  for (const row of rows) {
    row.forEach((c, i) => {
      natural[i] = Math.max(natural[i] ?? 0, displayWidth(oneLine(c)));
    });
  }
  if (columns === undefined || columns <= 0) return natural;
  const isFixed = (i: number): boolean => fixed[i] === true;
  const available =
    columns - GAP * Math.max(0, natural.length - 1) - natural.reduce((a, w, i) => a + (isFixed(i) ? w : 0), 0);
  const free = natural.filter((_, i) => !isFixed(i));
  const total = free.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  // Largest cap such that sum(min(w, cap)) <= available.
  let lo = MIN_WIDTH;
  let hi = Math.max(...free, MIN_WIDTH);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const sum = free.reduce((a, w) => a + Math.min(w, mid), 0);
    if (sum <= available) lo = mid;
    else hi = mid - 1;
  }
  return natural.map((w, i) => (isFixed(i) ? w : Math.min(w, lo)));
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
 * The columns (indexes) that go on a terminal `columns` wide, given their natural widths. Id
 * columns always stay. `drop`: the others from the left while they fit at their natural width.
 * `shrink`: all of them, unless even cut to the minimum width they do not fit; then the rightmost
 * go first. `none`: all.
 */
export function fitColumns(natural: readonly number[], ids: readonly boolean[], columns: number, mode: 'drop' | 'shrink' | 'none'): number[] {
  const all = natural.map((_, i) => i);
  if (mode === 'none') return all;
  const gaps = (n: number): number => GAP * Math.max(0, n - 1);
  if (mode === 'shrink') {
    const kept = [...all];
    const need = (): number => kept.reduce((a, i) => a + (ids[i] ? (natural[i] ?? 0) : Math.min(natural[i] ?? 0, MIN_WIDTH)), 0) + gaps(kept.length);
    for (let i = kept.length - 1; i >= 0 && need() > columns; i--) {
      if (!ids[kept[i] as number] && kept.length > 1) kept.splice(i, 1);
    }
    return kept;
  }
  let used = all.reduce((a, i) => a + (ids[i] ? (natural[i] ?? 0) : 0), 0);
  let count = all.filter((i) => ids[i]).length;
  const kept = new Set(all.filter((i) => ids[i]));
  for (const i of all) {
    if (ids[i]) continue;
    const width = natural[i] ?? 0;
    if (count > 0 && used + width + gaps(count + 1) - gaps(count) > columns) break;
    kept.add(i);
    used += width;
    count++;
  }
  return all.filter((i) => kept.has(i));
}
