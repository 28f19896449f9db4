/**
 * The default views of the resources an operator looks at most, kubectl-style: a few columns chosen
 * for reading at a glance, built from the sandbox's field names. The spec shows no response fields
 * beyond `entry_id`, so a view is only used when the items have its key field; any other shape gets
 * the generic view (layout.ts). `-o wide` and `--fields` show the fields themselves.
 */
import { codeName, isTimestampValue, relativeTime, statusStyle, timeText } from '../format.js';
import type { FormatContext } from '../format.js';
import { styles } from '../colour.js';
import { sanitize } from '../sanitize.js';
import type { Column } from './column.js';
import { fieldColumn, present, read } from './column.js';

export const VIEW_NAMES = ['parcels', 'events', 'attempts', 'requests'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

export interface View {
  /** The field every item of this resource has; without it in the response the view does not apply. */
  key: string;
  /** The field `--quiet` prints for each item (the item's own id); none for records without one. */
  idField?: string;
  columns: Column[];
}

/** A code shown by its name (`in_transit`), coloured for statuses; the number when no name is known. */
function nameColumn(header: string, field: string): Column {
  return {
    header,
    id: false,
    has: (item) => present(read(item, field)),
    cell(item, ctx) {
      const value = read(item, field);
      if (typeof value !== 'number' || !Number.isInteger(value)) return fieldColumn(field).cell(item, ctx);
      const name = codeName(field, value, ctx.names);
      if (name === undefined) return String(value);
      const text = sanitize(name);
      return field === 'status' ? statusStyle(name, styles(ctx.colour))(text) : text;
    },
  };
}

/** A timestamp as a date in the display zone, without the age (which has its own column). */
function timeColumn(header: string, field: string): Column {
  return {
    header,
    id: false,
    has: (item) => isTimestampValue(read(item, field)),
    cell: (item, ctx) => {
      const value = read(item, field);
      return isTimestampValue(value) ? timeText(value, ctx.timeZone) : fieldColumn(field).cell(item, ctx);
    },
  };
}

/** How long ago a timestamp was: `3m ago`. */
function ageColumn(header: string, field: string): Column {
  return {
    header,
    id: false,
    has: (item) => isTimestampValue(read(item, field)),
    cell: (item, ctx: FormatContext) => {
      const value = read(item, field);
      return isTimestampValue(value) ? relativeTime(value, ctx.now) : '';
    },
  };
}

/** Several text fields in one cell, joined by spaces (an address). */
function joinedColumn(header: string, fields: readonly string[]): Column {
  const parts = (item: unknown): string[] =>
    fields.map((f) => read(item, f)).filter(present).map((v) => sanitize(typeof v === 'string' ? v : JSON.stringify(v)));
  return { header, id: false, has: (item) => parts(item).length > 0, cell: (item) => parts(item).join(' ') };
}

const DELIVERED = ['postal_code', 'number', 'addition', 'city', 'country'].map((f) => `delivered.delivered_${f}`);

export const VIEWS: Readonly<Record<ViewName, View>> = {
  parcels: {
    key: 'entry_id',
    idField: 'entry_id',
    columns: [
      fieldColumn('entry_id', 'ID'),
      nameColumn('STATUS', 'status'),
      fieldColumn('courier', 'COURIER'),
      joinedColumn('ADDRESS', ['postal_code', 'number', 'addition']),
      ageColumn('AGE', 'created_at'),
    ],
  },
  events: {
    key: 'status',
    idField: 'event_id',
    columns: [timeColumn('TIME', 'occurred_at'), ageColumn('AGE', 'occurred_at'), nameColumn('STATUS', 'status')],
  },
  attempts: {
    key: 'outcome',
    idField: 'attempt_no',
    columns: [
      fieldColumn('attempt_no', 'NO.'),
      timeColumn('TIME', 'time_attempt'),
      nameColumn('OUTCOME', 'outcome'),
      nameColumn('REASON', 'reason'),
      joinedColumn('DELIVERED TO', DELIVERED),
    ],
  },
  requests: {
    key: 'path',
    columns: [timeColumn('TIME', 'at'), fieldColumn('method', 'METHOD'), fieldColumn('path', 'ROUTE'), fieldColumn('status', 'STATUS')],
  },
};
