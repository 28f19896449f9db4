/**
 * A column of a human table: a header, how to read its cell from an item, and whether it holds an
 * id (ids are never truncated to fit a terminal). Which columns appear is decided from the items'
 * raw values, never from formatted cells, so colour cannot change it.
 */
import { isRecord } from '../../schemas/record.js';
import { cellValue } from '../fields.js';
import { formatCell } from '../format.js';
import type { FormatContext } from '../format.js';

export interface Column {
  header: string;
  /** An id column: kept and shown whole whatever the terminal width. */
  id: boolean;
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

/** The column of one field, shown as formatCell shows it. */
export function fieldColumn(field: string, header = field): Column {
  return {
    header,
    id: isIdField(field),
    has: (item) => present(cellValue(item, field)),
    cell: (item, ctx) => formatCell(field, cellValue(item, field), ctx),
  };
}

/** `item[field]` when the item is a record. */
export function read(item: unknown, field: string): unknown {
  return isRecord(item) ? cellValue(item, field) : undefined;
}
