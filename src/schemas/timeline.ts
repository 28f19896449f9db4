/**
 * A parcel's story as one ordered list: its status events and delivery attempts merged by the time
 * they were observed. Pure: records in, ordered entries out.
 *
 * The spec shows no field of a stored record, so only the fields a record was created with are
 * relied on (`occurred_at` and `status` for an event; `time_attempt` and `outcome` for an attempt,
 * with `reason`, `delivered` and `attempt_no` when present). A record that does not echo them is
 * kept as it is, after the ordered ones, so an unexpected answer is still shown and never fails.
 */

import { isRecord } from './record.js';
import { DELIVERED_OUTCOMES } from './codes.js';

export type EntryKind = 'event' | 'attempt';

export interface TimelineEntry {
  kind: EntryKind;
  /** Observation time, Unix seconds; null for a record that does not echo it (it goes at the end). */
  at: number | null;
  /** The record as the service sent it. */
  record: unknown;
}

function integerField(record: unknown, name: string): number | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[name];
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The time an entry was observed, when the record echoes both its time and its code. */
function observedAt(kind: EntryKind, record: unknown): number | undefined {
  const [timeField, codeField] = kind === 'event' ? ['occurred_at', 'status'] : ['time_attempt', 'outcome'];
  const at = integerField(record, timeField);
  return at !== undefined && integerField(record, codeField) !== undefined ? at : undefined;
}

/**
 * Events and attempts in the order they happened. At the same second an event comes before an
 * attempt (a parcel is "in delivery" before the attempt), and attempts follow their `attempt_no`;
 * otherwise the service's own order is kept. Records without their fields follow, events first.
 */
export function buildTimeline(events: readonly unknown[], attempts: readonly unknown[]): TimelineEntry[] {
  const timed: { entry: TimelineEntry & { at: number }; index: number }[] = [];
  const untimed: TimelineEntry[] = [];
  let index = 0;
  for (const [kind, records] of [
    ['event', events],
    ['attempt', attempts],
  ] as const) {
    for (const record of records) {
      const at = observedAt(kind, record);
      if (at === undefined) untimed.push({ kind, at: null, record });
      else timed.push({ entry: { kind, at, record }, index: index++ });
    }
  }
  timed.sort((a, b) => a.entry.at - b.entry.at || kindRank(a.entry) - kindRank(b.entry) || attemptOrder(a.entry, b.entry) || a.index - b.index);
  return [...timed.map((t) => t.entry), ...untimed];
}

function kindRank(entry: TimelineEntry): number {
  return entry.kind === 'event' ? 0 : 1;
}

function attemptOrder(a: TimelineEntry, b: TimelineEntry): number {
  const left = integerField(a.record, 'attempt_no');
  const right = integerField(b.record, 'attempt_no');
  return left !== undefined && right !== undefined ? left - right : 0;
}

/** The attempt's outcome, for an attempt that echoes its time and outcome. */
export function attemptOutcome(entry: TimelineEntry): number | undefined {
  return entry.kind === 'attempt' && entry.at !== null ? integerField(entry.record, 'outcome') : undefined;
}

/** An attempt that delivered the parcel (outcome 0 or 2): its story is complete. */
export function isDelivery(entry: TimelineEntry): boolean {
  const outcome = attemptOutcome(entry);
  return outcome !== undefined && DELIVERED_OUTCOMES.has(outcome);
}

/** An attempt with any other outcome (failed, refused, rescheduled, or a code the spec does not name). */
export function isFailedAttempt(entry: TimelineEntry): boolean {
  const outcome = attemptOutcome(entry);
  return outcome !== undefined && !DELIVERED_OUTCOMES.has(outcome);
}

/** The last entry in time order (records without a time do not count). */
export function latestEntry(entries: readonly TimelineEntry[]): TimelineEntry | undefined {
  return entries.findLast((entry) => entry.at !== null);
}

/**
 * The JSON form of an entry: `{ kind, at, …the record }`. `kind` and `at` are this tool's and
 * always hold its values; a record that is not an object is kept under `value`.
 */
export function entryJson(entry: TimelineEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: entry.kind, at: entry.at };
  if (!isRecord(entry.record)) {
    out.value = entry.record;
    return out;
  }
  for (const [key, value] of Object.entries(entry.record)) if (key !== 'kind' && key !== 'at') out[key] = value;
  return out;
}

/**
 * Which entries of a fresh read are new, given what was seen before (updated in place). Records
 * carry no id the spec promises, so an entry is known by its content, counted: two identical
 * records are two entries, and the third copy is new.
 */
export function takeNew(seen: Map<string, number>, entries: readonly TimelineEntry[]): TimelineEntry[] {
  const counts = new Map<string, number>();
  const fresh: TimelineEntry[] = [];
  for (const entry of entries) {
    const key = `${entry.kind}\u0000${JSON.stringify(entry.record)}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > (seen.get(key) ?? 0)) {
      seen.set(key, count);
      fresh.push(entry);
    }
  }
  return fresh;
}

/** Where one parcel stands, for the several-parcels view in JSON: `{ entry_id, parcel, latest, delivered }`. */
export function parcelState(id: string, parcel: unknown, entries: readonly TimelineEntry[]): Record<string, unknown> {
  const latest = latestEntry(entries);
  return { entry_id: id, parcel, latest: latest === undefined ? null : entryJson(latest), delivered: entries.some(isDelivery) };
}
