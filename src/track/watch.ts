/**
 * Following parcels until they are delivered: poll, hand on what is new, stop at a delivery (or,
 * when asked, at a failed attempt). The reads, the output and the clock are passed in, so tests
 * drive every step without a server or a wall-clock wait.
 */
import { backoffDelay, pauseFor } from '../api/core/policy.js';
import { ApiError, NetworkError } from '../errors.js';
import type { TimelineEntry } from '../schemas/timeline.js';
import { isDelivery, isFailedAttempt, takeNew } from '../schemas/timeline.js';

export interface Snapshot {
  parcel: unknown;
  timeline: TimelineEntry[];
}

export interface WatchOptions {
  ids: readonly string[];
  intervalMs: number;
  /** End at the first attempt that appears while watching with an outcome other than 0 or 2. */
  failOnAttempt: boolean;
  /** Reads every given parcel (one request pool), in the order given. */
  read(ids: readonly string[]): Promise<Snapshot[]>;
  /** The first read of every parcel, before anything new. */
  first(snapshots: ReadonlyMap<string, Snapshot>): Promise<void>;
  /** Entries that appeared since the last read, per parcel, in the order of `ids`. */
  fresh(batch: readonly { id: string; entries: TimelineEntry[] }[]): Promise<void>;
  /** A read failed for a passing reason (429, 5xx, network): polling goes on after `delayMs`. */
  pausing(error: ApiError | NetworkError, delayMs: number): Promise<void>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  signal: AbortSignal;
  /** In [0, 1), for the jitter of the pause after a failed read. */
  random?: () => number;
}

export type WatchEnd = { delivered: true } | { delivered: false; id: string; attempt: TimelineEntry };

/** Pauses after failed reads double from the interval up to this (or the interval, if longer). */
export const MAX_PAUSE_MS = 5 * 60_000;

/** 429, 5xx and network failures pass; anything else (404, 401, …) ends the watch. */
export function isPassing(error: unknown): error is ApiError | NetworkError {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

/**
 * The pause after the `failures`-th failed read in a row, by the request core's backoff: doubling
 * from twice the interval, capped at MAX_PAUSE_MS (or the interval, if longer), never under the
 * pause the core's policy takes for the failure (`pauseFor`: a 429's, or a 503's Retry-After,
 * bounded — a hostile one makes it poll once per minute; a 500's Retry-After is not a pause).
 */
export function pauseAfter(failures: number, intervalMs: number, error: ApiError | NetworkError, random: () => number): number {
  const backoff = backoffDelay(failures, random, { baseMs: intervalMs * 2, capMs: Math.max(intervalMs, MAX_PAUSE_MS) });
  return Math.max(backoff, pauseFor(error) ?? 0);
}

export async function watch(options: WatchOptions): Promise<WatchEnd> {
  const seen = new Map<string, Map<string, number>>(options.ids.map((id) => [id, new Map()]));
  const open = new Set(options.ids);
  let failures = 0;
  let firstRead = true;
  for (;;) {
    let snapshots: Snapshot[];
    try {
      snapshots = await options.read([...open]);
    } catch (error) {
      if (!isPassing(error) || options.signal.aborted) throw error;
      failures++;
      const delay = pauseAfter(failures, options.intervalMs, error, options.random ?? Math.random);
      await options.pausing(error, delay);
      await options.sleep(delay, options.signal);
      continue;
    }
    failures = 0;
    const ids = [...open];
    const batch = ids.map((id, i) => ({ id, entries: takeNew(seen.get(id) ?? new Map(), snapshots[i]?.timeline ?? []) }));
    if (firstRead) {
      await options.first(new Map(ids.map((id, i) => [id, snapshots[i] as Snapshot])));
    } else if (batch.some((b) => b.entries.length > 0)) {
      await options.fresh(batch.filter((b) => b.entries.length > 0));
    }
    for (const { id, entries } of batch) {
      // Delivery is final and wins over a failed attempt read in the same poll. Attempts already
      // there when the watch began do not end it: a parcel that failed once is being watched for
      // its next attempt.
      if (entries.some(isDelivery)) {
        open.delete(id);
        continue;
      }
      const failed = firstRead || !options.failOnAttempt ? undefined : entries.find(isFailedAttempt);
      if (failed !== undefined) return { delivered: false, id, attempt: failed };
    }
    firstRead = false;
    if (open.size === 0) return { delivered: true };
    await options.sleep(options.intervalMs, options.signal);
  }
}
