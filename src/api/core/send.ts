/** The narrow interface the bulk engine sends through (BulkSender, or ApiClient for traced runs and the outbox). */

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

/**
 * Sends one request once (no retries: the engine retries). Resolves on 2xx; throws ApiError on
 * another status, NetworkError when there is no usable answer, CancelledError when `signal` aborts.
 */
export type Send = (request: SendRequest, signal?: AbortSignal) => Promise<SendResponse>;
