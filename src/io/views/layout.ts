/**
 * Which columns a human table shows, decided from the items' raw values (so colour, names or the
 * terminal never change the choice): `--fields` exactly as asked; `-o wide` every field; else the
 * resource's view when the items have its key field; else every field that holds something.
 */
import { isRecord } from '../../schemas/record.js';
import { columnsFor, fieldPaths } from '../fields.js';
import type { Column } from './column.js';
import { fieldColumn, read } from './column.js';
import type { ViewName } from './resources.js';
import { VIEWS } from './resources.js';

export interface LayoutOptions {
  fields?: string[];
  view?: ViewName;
  wide?: boolean;
  /** The parent of a child list (a parcel's events): a column repeating it in every row is left out. */
  parentId?: string;
}

/**
 * How a table meets the terminal's width: `fit` leaves out whole columns of the lowest priority and
 * shortens only free text (table.ts `fitTable`), naming what it left out on stderr; `none` lets
 * lines run past the edge (`-o wide`).
 */
export type FitMode = 'fit' | 'none';

export interface Layout {
  columns: Column[];
  fit: FitMode;
}

/** A view's columns are used when at least this many of them have something to show. */
const VIEW_MIN_COLUMNS = 2;

export function chooseLayout(items: unknown[], opts: LayoutOptions): Layout {
  if (opts.fields && opts.fields.length > 0) {
    // Columns asked for by name are never left out; only their free text is shortened.
    return { columns: columnsFor(items, opts.fields).map((f) => fieldColumn(f, f, { priority: Number.POSITIVE_INFINITY })), fit: 'fit' };
  }
  const parent = opts.parentId;
  const fields = expandRecords(items, columnsFor(items)).filter((f) => parent === undefined || !items.every((item) => read(item, f) === parent));
  const generic = fields.map((f) => fieldColumn(f));
  if (opts.wide) return { columns: generic, fit: 'none' };
  if (opts.view !== undefined) {
    const view = VIEWS[opts.view];
    if (items.some((item) => read(item, view.key) !== undefined)) {
      const columns = view.columns.filter((c) => items.some((item) => c.has(item)));
      if (columns.length >= VIEW_MIN_COLUMNS) return { columns, fit: 'fit' };
    }
  }
  return { columns: generic.filter((c) => items.some((item) => c.has(item))), fit: 'fit' };
}

/** A field holding records (an attempt's `delivered`) becomes a column per nested field, never a JSON blob in a cell. */
function expandRecords(items: unknown[], fields: string[]): string[] {
  return fields.flatMap((field) => {
    const nested = items.map((item) => read(item, field)).filter(isRecord);
    return nested.length === 0 ? [field] : fieldPaths(nested).map((path) => `${field}.${path}`);
  });
}
