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

/**
 * Several parcels, `PARCELS_AT_ONCE` at a time, answers in the order of `ids`. The first failure
 * stops the rest (their requests are cancelled); with `nameParcel` its message says which parcel.
 */
export async function readSnapshots(client: ApiClient, ids: readonly string[], options: ReadOptions, nameParcel: boolean): Promise<Snapshot[]> {
  const stop = new AbortController();
  const both = AbortSignal.any([options.signal, stop.signal]);
  const results: Snapshot[] = new Array<Snapshot>(ids.length);
  let next = 0;
  // The first failure is the one to report, not the cancellations it caused.
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < ids.length && failure === undefined) {
      const index = next++;
      const id = ids[index] as string;
      try {
        results[index] = await readSnapshot(client, id, { ...options, signal: both });
      } catch (error) {
        failure ??= { error: nameParcel && error instanceof ApiError ? namedError(error, id) : error };
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARCELS_AT_ONCE, ids.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

function namedError(error: ApiError, id: string): ApiError {
  const named = new ApiError(error.status, error.code, `parcel ${id}: ${error.message}`, error.body, error.retryAfter, error.hint);
  named.request = error.request;
  named.attempt = error.attempt;
  return named;
}
