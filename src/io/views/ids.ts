/** The id `--quiet` prints for an item or record. */
import { isRecord } from '../../schemas/record.js';
import { isIdField, present } from './column.js';
import type { ViewName } from './resources.js';
import { VIEWS } from './resources.js';

/**
 * The item's own id: its view's id field; else `entry_id`, `id`, `uuid`, any `*_id`, then `code`
 * (couriers) — skipping a value that is only the parent's id. Undefined when it has none.
 */
export function idOf(item: unknown, opts: { view?: ViewName; parentId?: string } = {}): string | undefined {
  if (!isRecord(item)) return undefined;
  const own = opts.view === undefined ? undefined : VIEWS[opts.view].idField;
  const candidates = [
    ...(own === undefined ? [] : [own]),
    'entry_id',
    'id',
    'uuid',
    ...Object.keys(item).filter(isIdField),
    'code',
  ];
  for (const field of candidates) {
    const value = item[field];
    if (!present(value) || value === opts.parentId) continue;
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}
