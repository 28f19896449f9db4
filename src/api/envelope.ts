/**
 * Helpers that work against any server following the spec: only `data`, `data.entry_id` and
 * `data.next_cursor` are known field names; everything else is discovered.
 */

const PREFERRED_ITEM_KEYS = ['items', 'results', 'parcels', 'events', 'attempts', 'couriers', 'requests', 'days', 'records'];

import { isRecord } from '../schemas/record.js';

/**
 * The list inside a payload: `data` itself when it is an array; otherwise its array-valued
 * property — one named items/results/parcels/events/attempts/couriers/requests/days/records when
 * several are arrays, else the first. Undefined when there is none.
 */
export function findItems(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (!isRecord(data)) return undefined;
  const arrays = Object.entries(data).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  if (arrays.length === 0) return undefined;
  if (arrays.length > 1) {
    for (const key of PREFERRED_ITEM_KEYS) {
      const hit = arrays.find(([k]) => k === key);
      if (hit) return hit[1];
    }
  }
  return arrays[0]?.[1];
}

/** `data.next_cursor`; null, absent or "" mean the last page (undefined). */
export function nextCursor(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  const cursor = data.next_cursor;
  if (typeof cursor === 'string') return cursor === '' ? undefined : cursor;
  if (typeof cursor === 'number') return String(cursor);
  return undefined;
}

/** `data.entry_id` as a string, when present. */
export function entryId(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  const id = data.entry_id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return undefined;
}

/** A page as the presenter takes it (io/present/resource.ts `Page`): the data whole, its list and its next cursor. */
export function pageOf(data: unknown): { data: unknown; items: unknown[] | undefined; nextCursor: string | undefined } {
  return { data, items: findItems(data), nextCursor: nextCursor(data) };
}
