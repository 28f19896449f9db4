import type { Counting, RetryContext } from './retry.js';

/** The narrow interface the bulk engine sends a line through (ApiClient's `send`, for a run and an outbox flush). */

export interface SendRequest {
  method: 'POST';
  path: string;
  /** The exact body bytes, sent as is. */
  body: Uint8Array;
  idempotencyKey: string;
}

export interface SendResponse {
  status: number;
  /** `data.entry_id` of the answer when it is a string (the key redacted, like every text from the service). */
  entryId: string | undefined;
  /** The service answered with its stored result of an earlier request with this key (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

/** How a run's lines are sent: set once per run (src/bulk/line-worker.ts), the same for each line. */
export interface LineRun {
  /** Counted as a bulk line is: pauses never count, every line repeatable (same key, same bytes). */
  counting: Counting;
  /** Admission at the run's gate, and the waits (a pause, the rate cap, a back-off) that end at the first abort. */
  retry: RetryContext;
  /** Cancels a request in flight (a second Ctrl-C): it stays uncertain in the journal. */
  abandon: AbortSignal | undefined;
}

/**
 * Sends one line until it has an outcome, through the retry piece (src/api/core/retry.ts) as `run`
 * counts. Resolves on 2xx; throws GaveUp with the last failure, CancelledError when a wait or the
 * request is cut short.
 */
export type Send = (request: SendRequest, run: LineRun) => Promise<SendResponse>;
