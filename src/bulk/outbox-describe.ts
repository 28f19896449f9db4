import type { OutboxEntry } from './outbox.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { matchRoute } from '../schemas/routes.js';

/** What an entry is read from: the route it is sent to and the body it carries. */
type Described = Pick<OutboxEntry, 'method' | 'path' | 'body'>;

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

/** A code by its name (`picked_up`), or as sent when the spec names no such code. */
const codeName = (value: unknown, names: Readonly<Record<number, string>>): string => (typeof value === 'number' ? (names[value] ?? String(value)) : text(value));

/**
 * Enough of a captured request to tell two apart, read from its route and body: `DEMO-BIKE 1234AB 99`
 * (a create: courier, postcode, house number, addition), `status picked_up` (an event), `outcome
 * failed not_at_home` (an attempt and its reason), `parcel_weight=500 addition=A` (a patch's fields).
 */
export function entryWhat(entry: Described): string {
  const b = entry.body;
  const route = matchRoute(entry.method, entry.path).route;
  switch (route?.name) {
    case 'parcels.create':
      return joined([b.courier, b.postal_code, b.number, b.addition].map(text));
    case 'events.create':
      return `status ${codeName(b.status, STATUS_NAMES)}`;
    case 'attempts.create':
      return joined(['outcome', codeName(b.outcome, OUTCOME_NAMES), b.reason === undefined ? '' : codeName(b.reason, REASON_NAMES)]);
    case 'parcels.patch':
      return joined(Object.entries(b).map(([field, value]) => `${field}=${value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : text(value)}`));
    default:
      return `${entry.method} ${entry.path}`;
  }
}

function joined(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join(' ');
}

/** One line naming an entry: `events add 3f1c… status in_transit`. */
export function entrySummary(entry: Described & Pick<OutboxEntry, 'command' | 'parcel'>): string {
  return joined([entry.command, entry.parcel ?? '', entryWhat(entry)]);
}
