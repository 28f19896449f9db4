/**
 * Tables in two forms (STYLE.md, pattern 5): on a TTY an aligned, borderless table like gh and
 * kubectl print (headers in capitals, bold with colour), fitted to the terminal by `fitTable`;
 * off a TTY plain tab-separated rows with a header line (tsv.ts).
 *
 * Fitting a table to a narrow terminal is decided here, once, for every view: whole columns of
 * the lowest priority go first (the caller says which, once), ids, names, times and paths are never
 * cut, and only free-text columns are shortened, with "…".
 */
import stringWidth from 'string-width';
import { styles } from './colour.js';
import { oneLine, sanitize } from './sanitize.js';
import { renderTsv } from './tsv.js';

/** How one column meets a terminal too narrow for the whole table. */
export interface ColumnFit {
  /** Higher stays longer: columns are left out whole, lowest priority first. `Infinity`: never left out (ids). */
  priority: number;
  /** Free text, which may be shortened with "…"; every other column is shown whole or not at all. */
  text: boolean;
}

export interface TableOptions {
  tty: boolean;
  colour: boolean;
  /** Column widths (from `fitTable`); default: each column's natural width. */
  widths?: number[];
  /** Which columns are free text that may be cut to its width (default: none; the others run wider). */
  text?: readonly boolean[];
  /** Print the header line. Default true. */
  header?: boolean;
}

/** Space between columns of a TTY table. */
export const GAP = 2;
/** A free-text column is never shortened below this many characters. */
export const MIN_TEXT_WIDTH = 8;

/** Columns a string occupies on a terminal (escape sequences count 0, wide CJK/emoji 2, combining marks 0). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** How a header looks on a terminal, in every view: `created_at` → `CREATED_AT`. */
export function headerText(header: string): string {
  return sanitize(header).toUpperCase();
}

/** The width each column needs to show its header and every cell whole. */
export function naturalWidths(headers: readonly string[], rows: readonly string[][]): number[] {
  const natural = headers.map((h) => displayWidth(headerText(h)));
  for (const row of rows) {
    row.forEach((c, i) => {
      natural[i] = Math.max(natural[i] ?? 0, displayWidth(oneLine(c)));
    });
  }
  return natural;
}

export interface Fitted {
  /** Indexes of the columns shown, in their order. */
  kept: number[];
  /** Their widths, one per kept column. */
  widths: number[];
  /** Indexes of the columns left out for width. */
  dropped: number[];
}

/**
 * The columns shown on a terminal `columns` wide and their widths. While the table does not fit
 * with every free-text column at its minimum, the column of the lowest priority (the rightmost of
 * equals) is left out; then free-text columns share what is left, the widest cut first. When
 * only columns that are never left out remain and still do not fit, the lines run past the edge.
 */
export function fitTable(natural: readonly number[], fits: readonly ColumnFit[], columns: number): Fitted {
  const kept = natural.map((_, i) => i);
  const dropped: number[] = [];
  const textAt = (i: number): boolean => fits[i]?.text === true;
  const least = (i: number): number => (textAt(i) ? Math.min(natural[i] ?? 0, MIN_TEXT_WIDTH) : (natural[i] ?? 0));
  const need = (): number => kept.reduce((a, i) => a + least(i), 0) + GAP * Math.max(0, kept.length - 1);
  while (need() > columns && kept.length > 1) {
    let victim = -1;
    for (const i of kept) {
      const priority = fits[i]?.priority ?? 0;
      if (priority === Number.POSITIVE_INFINITY) continue;
      if (victim === -1 || priority <= (fits[victim]?.priority ?? 0)) victim = i;
    }
    if (victim === -1) break;
    kept.splice(kept.indexOf(victim), 1);
    dropped.push(victim);
  }
  const whole = kept.filter((i) => !textAt(i));
  const text = kept.filter(textAt);
  const available = columns - GAP * Math.max(0, kept.length - 1) - whole.reduce((a, i) => a + (natural[i] ?? 0), 0);
  // The largest cap such that sum(min(width, cap)) fits what is left (never below the minimum).
  let cap = Math.max(MIN_TEXT_WIDTH, ...text.map((i) => natural[i] ?? 0));
  while (cap > MIN_TEXT_WIDTH && text.reduce((a, i) => a + Math.min(natural[i] ?? 0, cap), 0) > available) cap--;
  const widths = kept.map((i) => (textAt(i) ? Math.min(natural[i] ?? 0, cap) : (natural[i] ?? 0)));
  return { kept, widths, dropped: dropped.sort((a, b) => a - b) };
}

// eslint-disable-next-line no-control-regex -- a style's escape sequence is what is looked for
const SGR = /\u001b\[[0-9;]*m/y;
// eslint-disable-next-line no-control-regex -- as SGR: where the next escape sequence starts
const NEXT_SGR = /\u001b\[[0-9;]*m/;
const graphemes = new Intl.Segmenter();

/**
 * `text` cut to `width` columns with "…". Its escape sequences are kept, and a cut styled cell
 * ends with a reset, so its style never runs on into the next columns.
 */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let styled = false;
  let i = 0;
  while (i < text.length) {
    SGR.lastIndex = i;
    const escape = SGR.exec(text);
    if (escape !== null) {
      out += escape[0];
      styled = true;
      i += escape[0].length;
      continue;
    }
    const next = text.slice(i).search(NEXT_SGR);
    const plain = next === -1 ? text.slice(i) : text.slice(i, i + next);
    for (const { segment } of graphemes.segment(plain)) {
      const w = displayWidth(segment);
      if (used + w > width - 1) return `${out}…${styled ? '\u001b[0m' : ''}`;
      out += segment;
      used += w;
    }
    i += plain.length;
  }
  return out;
}

/**
 * `headers` are raw keys (sanitised here); `rows` are cells already made safe by formatCell, whose
 * own styling (dim, bold) must survive.
 */
export function renderTable(headers: string[], rows: string[][], opts: TableOptions): string {
  if (!opts.tty) return renderTsv(headers, rows);
  const s = styles(opts.colour);
  const widths = opts.widths ?? naturalWidths(headers, rows);
  const line = (cells: readonly string[], style: (text: string) => string = (t) => t): string => {
    const last = cells.length - 1;
    return (
      cells
        .map((raw, i) => {
          const width = widths[i] ?? 0;
          const cell = opts.text?.[i] === true ? cutToWidth(oneLine(raw), width) : oneLine(raw);
          const shown = style(cell);
          return i === last ? shown : shown + ' '.repeat(Math.max(0, width - displayWidth(cell)));
        })
        .join(' '.repeat(GAP))
        .replace(/\s+$/u, '') + '\n'
    );
  };
  let out = opts.header === false ? '' : line(headers.map(headerText), s.bold);
  for (const row of rows) out += line(headers.map((_, i) => row[i] ?? ''));
  return out;
}
