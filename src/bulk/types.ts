/** The narrow interface the bulk engine sends through, so it does not depend on the client's internals. */

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
}

/**
 * Sends one request once (no retries: the engine retries). Resolves on 2xx; throws ApiError on
 * another status, NetworkError when there is no usable answer, CancelledError when `signal` aborts.
 */
export type Send = (request: SendRequest, signal?: AbortSignal) => Promise<SendResponse>;

/** Which command a bulk run feeds. */
export type BulkKind = 'create' | 'events' | 'attempts';

/** One result line of a run (NDJSON on stdout), in input order. */
export interface ResultLine {
  line: number;
  ok: boolean;
  entry_id?: string;
  /** True when an earlier run had already confirmed this line: nothing was sent. */
  replayed?: true;
  /** `status` is absent when there was no HTTP answer (network) or nothing was sent (invalid line). */
  error?: { status?: number; code: string; message: string; field?: string };
}
