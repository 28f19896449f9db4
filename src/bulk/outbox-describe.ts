import type { OutboxEntry } from './outbox.js';
import { OUTCOME_NAMES, STATUS_NAMES } from '../schemas/codes.js';

/** Enough of a captured request to tell two apart: `DEMO-BIKE 1234AB 10`, `status 2 in_transit`, `outcome 1 failed`. */
export function entryWhat(entry: Pick<OutboxEntry, 'command' | 'body'>): string {
  const b = entry.body;
  const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
  const code = (label: string, value: unknown, names: Readonly<Record<number, string>>): string =>
    typeof value === 'number' ? `${label} ${value}${names[value] === undefined ? '' : ` ${names[value]}`}` : '';
  if (entry.command === 'create') return [b.courier, b.postal_code, b.number, b.addition].map(text).filter((t) => t !== '').join(' ');
  if (entry.command === 'events add') return code('status', b.status, STATUS_NAMES);
  return code('outcome', b.outcome, OUTCOME_NAMES);
}

/** One line naming an entry: `events add 3f1c… status 2 in_transit`. */
export function entrySummary(entry: Pick<OutboxEntry, 'command' | 'body' | 'parcel'>): string {
  return [entry.command, entry.parcel, entryWhat(entry)].filter((part) => part !== undefined && part !== '').join(' ');
}
