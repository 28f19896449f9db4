/**
 * A column of a human table: a header, how to read its cell from an item, and whether it holds an
 * id (ids are never truncated to fit a terminal). Which columns appear is decided from the items'
 * raw values, never from formatted cells, so colour cannot change it.
 */
import { isRecord } from '../../schemas/record.js';
import { cellValue } from '../fields.js';
import { formatCell, leaf } from '../format.js';
import type { FormatContext } from '../format.js';

export interface Column {
  header: string;
  /** An id column: kept and shown whole whatever the terminal width. */
  id: boolean;
  /**
   * On a narrow terminal (table.ts `fitTable`): higher stays longer, the lowest is left out first.
   * Absent: by position, the leftmost staying longest; an id column is never left out.
   */
  priority?: number;
  /** Free text (an address, a message), shortened with "…" to fit; every other column is shown whole. */
  text?: boolean;
  /** The item has something to show in this column. */
  has(item: unknown): boolean;
  cell(item: unknown, ctx: FormatContext): string;
}

/** A value worth a column: not absent, null or empty text. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

export function isIdField(field: string): boolean {
  return field === 'id' || field === 'uuid' || field.endsWith('_id');
}

/** Fields holding free text, which may be shortened to fit a terminal. */
const FREE_TEXT = new Set(['city', 'street', 'addition', 'delivered_city', 'delivered_street', 'delivered_addition', 'message', 'detail', 'fix', 'command', 'latest', 'delivered_to', 'description', 'name', 'error']);

/** The column of one field, shown as formatCell shows it. */
export function fieldColumn(field: string, header = field, fit: { priority?: number; text?: boolean } = {}): Column {
  return {
    header,
    id: isIdField(field),
    priority: fit.priority,
    text: fit.text ?? FREE_TEXT.has(leaf(field)),
    has: (item) => present(cellValue(item, field)),
    cell: (item, ctx) => formatCell(field, cellValue(item, field), ctx),
  };
}

/** `item[field]` when the item is a record. */
export function read(item: unknown, field: string): unknown {
  return isRecord(item) ? cellValue(item, field) : undefined;
}
