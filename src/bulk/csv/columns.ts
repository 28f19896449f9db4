import { UsageError } from '../../errors.js';
import { deliveredAddressSchema } from '../../schemas/history.js';
import { PARCEL_FIELDS } from '../../schemas/parcel-fields.js';
import type { BulkKind } from '../types.js';

/** The body fields of each history kind (spec 2.3, 2.4). */
export const EVENT_FIELDS: readonly string[] = ['status', 'occurred_at'];
export const ATTEMPT_FIELDS: readonly string[] = ['time_attempt', 'outcome', 'reason', 'delivered', 'attempt_no'];
/** CSV has no nesting: a delivered-address field comes as its own column and goes into `delivered`. */
export const DELIVERED_FIELDS: readonly string[] = Object.keys(deliveredAddressSchema.shape);

/** The columns a CSV file of each kind may have: the request's fields (a history line's parcel is `entry_id`). */
export const KNOWN_COLUMNS: Readonly<Record<BulkKind, readonly string[]>> = {
  create: PARCEL_FIELDS.map((f) => f.name),
  events: ['entry_id', ...EVENT_FIELDS],
  attempts: ['entry_id', ...ATTEMPT_FIELDS.filter((f) => f !== 'delivered'), ...DELIVERED_FIELDS],
};

/** What the flags say about an input's columns (CSV) or fields (NDJSON). */
export interface ColumnRules {
  kind: BulkKind;
  /** --ignore-columns: never sent. */
  ignore: readonly string[];
  /** --ignore-unknown-columns: columns that are not fields of the request are never sent. */
  ignoreUnknown: boolean;
  /** --id-column: each line's identity, never sent. */
  idColumn: string | undefined;
}

/** `--ignore-columns a,b`: the names, trimmed. */
export function ignoreColumnsFlag(value: string): string[] {
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UsageError(`--ignore-columns must be column names separated by commas, e.g. street,city (got "${value}")`, '--ignore-columns');
  return names;
}

/** The header names columns that are neither fields of the request nor ignored: nothing was sent. */
export class UnknownColumnsError extends UsageError<'--from'> {
  constructor(
    readonly input: string,
    readonly unknown: readonly string[],
    readonly kind: BulkKind,
    hint?: string,
  ) {
    const names = unknown.map((name) => `"${name}"`).join(', ');
    super(
      `${input}: the CSV header names ${unknown.length === 1 ? 'a column' : `${unknown.length} columns`} that ${unknown.length === 1 ? 'is' : 'are'} not ${kind === 'create' ? 'a parcel field' : `a field of ${kind}`}: ${names}; nothing was sent (known columns: ${KNOWN_COLUMNS[kind].join(', ')})`,
      '--from',
      hint ?? `rename ${unknown.length === 1 ? 'it' : 'them'}, or ignore ${unknown.length === 1 ? 'it' : 'them'} with --ignore-columns ${unknown.join(',')} (or every unknown column with --ignore-unknown-columns)`,
    );
  }
}

/**
 * What becomes of each column of a header: a field of the request, ignored (undefined), or the
 * identity column. Throws UnknownColumnsError naming every unknown column at once, and a
 * UsageError when --id-column names no column.
 */
export function headerColumns(header: readonly string[], rules: ColumnRules, input: string): { fields: Array<string | undefined>; id: number | undefined } {
  const known = new Set(KNOWN_COLUMNS[rules.kind]);
  const ignore = new Set(rules.ignore);
  const unknown = header.filter((name) => !known.has(name) && !ignore.has(name) && name !== rules.idColumn);
  if (unknown.length > 0 && !rules.ignoreUnknown) throw new UnknownColumnsError(input, unknown, rules.kind);
  const id = rules.idColumn === undefined ? undefined : header.indexOf(rules.idColumn);
  if (id === -1) throw new UsageError(`--id-column: ${input} has no column "${rules.idColumn as string}" (its columns: ${header.join(', ')})`, '--id-column');
  return { fields: header.map((name, at) => (at === id || ignore.has(name) || !known.has(name) ? undefined : name)), id };
}

/**
 * An NDJSON line's fields under the same rules: the identity field taken out, ignored fields
 * dropped (unknown fields only with --ignore-unknown-columns; else they stay as they always did).
 */
export function lineFields(record: Record<string, unknown>, rules: ColumnRules): { record: Record<string, unknown>; identity: unknown } {
  if (rules.idColumn === undefined && rules.ignore.length === 0 && !rules.ignoreUnknown) return { record, identity: undefined };
  const known = KNOWN_COLUMNS[rules.kind];
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (name === rules.idColumn || rules.ignore.includes(name)) continue;
    if (rules.ignoreUnknown && !known.includes(name) && !(rules.kind === 'attempts' && name === 'delivered')) continue;
    kept[name] = value;
  }
  return { record: kept, identity: rules.idColumn === undefined ? undefined : record[rules.idColumn] };
}
