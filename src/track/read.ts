import { findItems } from '../api/envelope.js';
import type { ApiClient } from '../api/http.js';
import { ApiError } from '../errors.js';
import { buildTimeline } from '../schemas/timeline.js';
import type { Snapshot } from './watch.js';

/** Parcels read at the same time when following several (three requests each, one pool). */
export const PARCELS_AT_ONCE = 8;

/** How each read goes: its signal, and its retries when not the client's (a --watch poll: none). */
export interface ReadOptions {
  signal: AbortSignal;
  retries?: number | undefined;
}

/** A parcel and its timeline: the parcel, its events and its attempts, read in parallel. */
export async function readSnapshot(client: ApiClient, id: string, options: ReadOptions): Promise<Snapshot> {
  const call = { params: { id }, ...options };
  const [parcel, events, attempts] = await Promise.all([client.route('parcels.get', call), client.route('events.list', call), client.route('attempts.list', call)]);
  return { parcel: parcel.data, timeline: buildTimeline(findItems(events.data) ?? [], findItems(attempts.data) ?? []) };
}

/** One parcel's read: its snapshot, or why it could not be read. */
export type SnapshotResult = { read: true; snapshot: Snapshot } | { read: false; error: unknown };

/**
 * Several parcels, `PARCELS_AT_ONCE` at a time, answers in the order of `ids`. With `stopAtFirst`
 * the first failure cancels the rest (a watch's poll); without, every parcel is read and each
 * failure kept in its place (`track A B` shows what it found). Cancellation is never kept: the
 * command's signal ends it all. With `nameParcel` a service's message says which parcel.
 */
async function readEach(client: ApiClient, ids: readonly string[], options: ReadOptions, nameParcel: boolean, stopAtFirst: boolean): Promise<SnapshotResult[]> {
  const stop = new AbortController();
  const both = AbortSignal.any([options.signal, stop.signal]);
  const results: SnapshotResult[] = new Array<SnapshotResult>(ids.length);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (next < ids.length && !stopped) {
      const index = next++;
      const id = ids[index] as string;
      try {
        results[index] = { read: true, snapshot: await readSnapshot(client, id, { ...options, signal: both }) };
      } catch (error) {
        if (options.signal.aborted) throw error;
        // The first failure is the one to report, not the cancellations it caused.
        if (stopped) continue;
        results[index] = { read: false, error: nameParcel && error instanceof ApiError ? namedError(error, id) : error };
        if (stopAtFirst) {
          stopped = true;
          stop.abort();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARCELS_AT_ONCE, ids.length) }, worker));
  return results;
}

/** Every parcel or none: the first failure is thrown (a watch's poll, one parcel's timeline). */
export async function readSnapshots(client: ApiClient, ids: readonly string[], options: ReadOptions, nameParcel: boolean): Promise<Snapshot[]> {
  const results = await readEach(client, ids, options, nameParcel, true);
  const snapshots: Snapshot[] = [];
  for (const result of results) {
    // Only the first failure is kept: the parcels it cancelled have no result at all.
    if (result !== undefined && !result.read) throw result.error;
    if (result !== undefined) snapshots.push(result.snapshot);
  }
  return snapshots;
}

/** Every parcel read, each failure in its place (in the order of `ids`). */
export function readSnapshotsEach(client: ApiClient, ids: readonly string[], options: ReadOptions): Promise<SnapshotResult[]> {
  return readEach(client, ids, options, true, false);
}

function namedError(error: ApiError, id: string): ApiError {
  const named = new ApiError(error.status, error.code, `parcel ${id}: ${error.message}`, error.body, error.retryAfter, error.hint);
  named.request = error.request;
  named.attempt = error.attempt;
  return named;
}
