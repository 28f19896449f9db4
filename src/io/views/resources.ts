/**
 * The default views of the resources an operator looks at most, kubectl-style: a few columns chosen
 * for reading at a glance, built from the sandbox's field names. The spec shows no response fields
 * beyond `entry_id`, so a view is only used when the items have its key field; any other shape gets
 * the generic view (layout.ts). `-o wide` and `--fields` show the fields themselves.
 */
import { codeText, isTimestampValue, timeCell } from '../format.js';
import { ageText, isoUtcSeconds, relativeTime } from '../../schemas/time-text.js';
import type { FormatContext } from '../format.js';
import { sanitize } from '../sanitize.js';
import { API_PREFIX } from '../../schemas/routes.js';
import type { Column } from './column.js';
import { fieldColumn, present, read } from './column.js';
import { ADDRESS_PARCEL_FIELDS } from '../../schemas/parcel-fields.js';

export const VIEW_NAMES = ['parcels', 'events', 'attempts', 'requests', 'steps', 'states', 'batches', 'outbox'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

export interface View {
  /** The field every item of this resource has; without it in the response the view does not apply. */
  key: string;
  /** The field `--quiet` prints for each item (the item's own id); none for records without one. */
  idField?: string;
  columns: Column[];
}

/** A count shown only when some row has more than none of it. */
function countColumn(field: string, header: string, priority: number): Column {
  return { ...fieldColumn(field, header, { priority }), has: (item) => Number(read(item, field)) > 0 };
}

/**
 * A code, as every view shows one (format.ts `codeText`). `kind`: the code field whose names apply
 * (a simulated step's `event` is a status).
 */
function nameColumn(header: string, field: string, priority: number, kind = field): Column {
  return {
    header,
    id: false,
    priority,
    has: (item) => present(read(item, field)),
    cell(item, ctx) {
      const value = read(item, field);
      if (typeof value !== 'number' || !Number.isInteger(value)) return fieldColumn(field).cell(item, ctx);
      return codeText(kind, value, ctx) ?? String(value);
    },
  };
}

/** Unix seconds, or a UTC ISO 8601 time as the sandbox writes them; undefined for anything else. */
function seconds(value: unknown): number | undefined {
  if (isTimestampValue(value)) return value;
  return typeof value === 'string' ? isoUtcSeconds(value) : undefined;
}

/** A timestamp without the age (which has its own column): compact on a terminal (format.ts `timeCell`). */
function timeColumn(header: string, field: string, priority: number): Column {
  return {
    header,
    id: false,
    priority,
    has: (item) => seconds(read(item, field)) !== undefined,
    cell: (item, ctx) => {
      const at = seconds(read(item, field));
      return at !== undefined ? timeCell(at, ctx) : fieldColumn(field).cell(item, ctx);
    },
  };
}

/**
 * A logged request's path without the delivery routes' prefix (`/parcels/ID/events`): most routes have it,
 * so on a terminal it only pushes the status off a narrow screen. The route stays whole and is the
 * last column left out; `-o wide` and JSON show the whole `path`.
 */
function routeColumn(): Column {
  const path = fieldColumn('path', 'ROUTE', { priority: 60 });
  return {
    ...path,
    cell(item, ctx) {
      const value = read(item, 'path');
      if (typeof value !== 'string' || !value.startsWith(`${API_PREFIX}/`)) return path.cell(item, ctx);
      return path.cell({ path: value.slice(API_PREFIX.length) }, ctx);
    },
  };
}

/** How long ago a timestamp was: `3m ago`. */
function ageColumn(header: string, field: string, priority: number): Column {
  return {
    header,
    id: false,
    priority,
    has: (item) => seconds(read(item, field)) !== undefined,
    cell: (item, ctx: FormatContext) => {
      const at = seconds(read(item, field));
      return at !== undefined ? relativeTime(at, ctx.now) : '';
    },
  };
}

/** An age given in seconds (`age: 17`), as a cell shows ages: `17s`. */
function secondsAgeColumn(header: string, field: string, priority: number): Column {
  return {
    header,
    id: false,
    priority,
    has: (item) => typeof read(item, field) === 'number',
    cell: (item, ctx) => {
      const value = read(item, field);
      return typeof value === 'number' ? ageText(value) : fieldColumn(field).cell(item, ctx);
    },
  };
}

/** Several text fields in one cell, joined by spaces (an address): free text, shortened to fit. */
function joinedColumn(header: string, fields: readonly string[], priority: number): Column {
  const parts = (item: unknown): string[] =>
    fields.map((f) => read(item, f)).filter(present).map((v) => sanitize(typeof v === 'string' ? v : JSON.stringify(v)));
  return { header, id: false, priority, text: true, has: (item) => parts(item).length > 0, cell: (item) => parts(item).join(' ') };
}

/** An id that is the point of its view: never left out, never cut. */
const ID = Number.POSITIVE_INFINITY;

const DELIVERED = ['postal_code', 'number', 'addition', 'city', 'country'].map((f) => `delivered.delivered_${f}`);

/**
 * Each view's columns, with the priority that decides which go first on a narrow terminal (higher
 * stays longer): what the view is for stays, ages and extras go.
 */
export const VIEWS: Readonly<Record<ViewName, View>> = {
  parcels: {
    key: 'entry_id',
    idField: 'entry_id',
    columns: [
      fieldColumn('entry_id', 'ID', { priority: ID }),
      nameColumn('STATUS', 'status', 50),
      fieldColumn('courier', 'COURIER', { priority: 30 }),
      joinedColumn('ADDRESS', ADDRESS_PARCEL_FIELDS, 10),
      ageColumn('AGE', 'created_at', 20),
    ],
  },
  events: {
    key: 'status',
    idField: 'event_id',
    columns: [timeColumn('TIME', 'occurred_at', 40), ageColumn('AGE', 'occurred_at', 20), nameColumn('STATUS', 'status', 50)],
  },
  attempts: {
    key: 'outcome',
    idField: 'attempt_no',
    columns: [
      fieldColumn('attempt_no', 'NO.', { priority: ID }),
      timeColumn('TIME', 'time_attempt', 40),
      nameColumn('OUTCOME', 'outcome', 50),
      nameColumn('REASON', 'reason', 30),
      joinedColumn('DELIVERED TO', DELIVERED, 10),
    ],
  },
  /** The sandbox's request log (`sandbox logs`). */
  requests: {
    key: 'path',
    columns: [
      fieldColumn('seq', 'SEQ', { priority: 40 }),
      timeColumn('TIME', 'at', 30),
      fieldColumn('method', 'METHOD', { priority: 58 }),
      routeColumn(),
      // HTTP, not STATUS: four columns, so the longest route (`/parcels/ID/attempts`) and its status fit 60.
      fieldColumn('status', 'HTTP', { priority: 59 }),
      fieldColumn('code', 'CODE', { priority: 25 }),
      fieldColumn('replay', 'REPLAY', { priority: 10 }),
      fieldColumn('latency_ms', 'MS', { priority: 15 }),
      // Only when an answer was injected (sandbox faults): the aimed fault's id, or the rate that shaped it.
      fieldColumn('fault', 'FAULT', { priority: 45 }),
    ],
  },
  /** A parcel's simulated run (`sandbox simulate`): whether each step was applied is the point. */
  steps: {
    key: 'arrives_at',
    columns: [
      fieldColumn('step', 'STEP', { priority: ID }),
      timeColumn('ARRIVES', 'arrives_at', 40),
      ageColumn('IN', 'arrives_at', 10),
      timeColumn('OCCURRED', 'occurred_at', 20),
      nameColumn('EVENT', 'event', 60, 'status'),
      nameColumn('OUTCOME', 'outcome', 60),
      nameColumn('REASON', 'reason', 50),
      fieldColumn('copies', 'COPIES', { priority: 15 }),
      fieldColumn('applied', 'APPLIED', { priority: 70 }),
      fieldColumn('refused', 'REFUSED', { priority: 65 }),
    ],
  },
  /** Several parcels followed at once (`track A B C`): where each stands and whether it was delivered. */
  states: {
    key: 'latest',
    idField: 'entry_id',
    columns: [
      fieldColumn('entry_id', 'ID', { priority: ID }),
      nameColumn('STATUS', 'status', 30),
      fieldColumn('latest', 'LATEST', { priority: 60, text: true }),
      ageColumn('AGE', 'latest_at', 20),
      fieldColumn('delivered', 'DELIVERED', { priority: 70 }),
      fieldColumn('delivered_to', 'DELIVERED TO', { priority: 10, text: true }),
    ],
  },
  /** Bulk-run journals (`batches`). */
  batches: {
    key: 'batch',
    idField: 'batch',
    columns: [
      fieldColumn('batch', 'BATCH', { priority: ID }),
      fieldColumn('input', 'INPUT', { priority: 20 }),
      fieldColumn('done', 'DONE', { priority: 50 }),
      // The last run's counts beyond done, each shown when a batch has some: a column of zeros says nothing.
      countColumn('failed', 'FAILED', 45),
      countColumn('invalid', 'INVALID', 40),
      countColumn('cancelled', 'CANCELLED', 38),
      countColumn('queued', 'QUEUED', 42),
      fieldColumn('age', 'AGE', { priority: 30 }),
      fieldColumn('superseded_by', 'SUPERSEDED BY', { priority: 35 }),
    ],
  },
  /** Requests the outbox holds (`outbox`). */
  outbox: {
    key: 'command',
    idField: 'seq',
    columns: [
      fieldColumn('seq', 'SEQ', { priority: ID }),
      secondsAgeColumn('AGE', 'age', 20),
      timeColumn('CAPTURED', 'captured_at', 10),
      fieldColumn('command', 'COMMAND', { priority: 60, text: false }),
      fieldColumn('parcel', 'PARCEL', { priority: 40 }),
      // What the request carries tells two entries apart: shown whole at any width (other columns go first).
      fieldColumn('what', 'WHAT', { priority: 65, text: false }),
      fieldColumn('state', 'STATE', { priority: 70 }),
    ],
  },
};
