/**
 * --fields narrowing and column choice. Nothing here knows our sandbox's field names: every
 * server's records work, and unknown fields are simply absent.
 */

import { isRecord } from '../schemas/record.js';

type Obj = Record<string, unknown>;

/** Read `a.b.c` from a record; an own key that itself contains dots wins. Absent → undefined. */
export function getPath(record: unknown, path: string): unknown {
  if (!isRecord(record)) return undefined;
  if (Object.prototype.hasOwnProperty.call(record, path)) return record[path];
  let current: unknown = record;
  for (const part of path.split('.')) {
    if (!isRecord(current) || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/**
 * Narrow a record to `fields` (in the order given), keeping nesting for dotted paths:
 * `delivered.delivered_city` → `{ delivered: { delivered_city: … } }`. Unknown fields are left
 * out. No fields (undefined or empty) → the record unchanged. Arrays are narrowed item by item.
 */
export function pickFields(record: unknown, fields: string[] | undefined): unknown {
  if (!fields || fields.length === 0) return record;
  if (Array.isArray(record)) return record.map((item) => pickFields(item, fields));
  if (!isRecord(record)) return record;
  const out: Obj = {};
  for (const field of fields) {
    if (Object.prototype.hasOwnProperty.call(record, field)) {
      out[field] = record[field];
      continue;
    }
    const value = getPath(record, field);
    if (value === undefined) continue;
    const parts = field.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      if (isRecord(next)) target = next;
      else {
        const created: Obj = {};
        target[part] = created;
        target = created;
      }
    }
    target[parts[parts.length - 1] as string] = value;
  }
  return out;
}

/** How many leading items decide the columns when --fields is not given. */
const COLUMN_SAMPLE = 100;

function isIdLike(key: string): boolean {
  return key === 'id' || key === 'uuid' || key.endsWith('_id');
}

/**
 * The columns of a list. With `fields`: exactly those (duplicates dropped). Otherwise the union
 * of the keys of the first items in first-seen order, with `entry_id`, then `id`-like keys
 * (`id`, `uuid`, `*_id`), then `status` moved to the front. Items that are not objects give a
 * single `value` column.
 */
export function columnsFor(items: unknown[], fields?: string[]): string[] {
  if (fields && fields.length > 0) return [...new Set(fields)];
  const seen = new Set<string>();
  let primitives = false;
  for (const item of items.slice(0, COLUMN_SAMPLE)) {
    if (isRecord(item)) for (const key of Object.keys(item)) seen.add(key);
    else primitives = true;
  }
  if (seen.size === 0) return primitives ? ['value'] : [];
  const keys = [...seen];
  const first: string[] = [];
  if (seen.has('entry_id')) first.push('entry_id');
  if (seen.has('id')) first.push('id');
  for (const key of keys) if (isIdLike(key) && !first.includes(key)) first.push(key);
  if (seen.has('status')) first.push('status');
  return [...first, ...keys.filter((key) => !first.includes(key))];
}

/** The value of column `column` for `item` (a non-object item is its own `value`). */
export function cellValue(item: unknown, column: string): unknown {
  if (!isRecord(item)) return column === 'value' ? item : undefined;
  return getPath(item, column);
}

/**
 * Flatten nested plain objects into dotted keys for a key/value view:
 * `{ delivered: { delivered_city: 'X' } }` → `[['delivered.delivered_city', 'X']]`. Arrays stay whole.
 */
export function flattenEntries(record: Obj, prefix = ''): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isRecord(value) && Object.keys(value).length > 0) out.push(...flattenEntries(value, path));
    else out.push([path, value]);
  }
  return out;
}

/** Every field path the items have (nested records flattened to dotted paths), in first-seen order. */
export function fieldPaths(items: unknown[]): string[] {
  const seen = new Set<string>();
  for (const item of items.slice(0, COLUMN_SAMPLE)) {
    if (isRecord(item)) for (const [path] of flattenEntries(item)) seen.add(path);
  }
  return [...seen];
}

/**
 * The --fields no item of the response has (fields are not in the spec, so the response is the
 * only authority). Empty when every field is found somewhere, or when there are no items to judge by.
 */
export function unknownFields(items: unknown[], fields: string[] | undefined): string[] {
  if (!fields || fields.length === 0 || items.length === 0) return [];
  if (!items.some(isRecord)) return [];
  return fields.filter((field) => !items.some((item) => getPath(item, field) !== undefined));
}
