import type { ApiClient } from '../api/http.js';
import { entryIdOf } from '../api/core/answer.js';
import { isReplayed } from '../schemas/headers.js';
import type { Send } from './types.js';

/**
 * The engine's `Send` over ApiClient, for runs that trace (`--verbose`) and for the outbox flush;
 * plain bulk runs use BulkSender (src/api/core/dispatch.ts). Build the client with `retries: 0`: the
 * engine does its own retries (same key, same bytes), admits each line through the client's gate
 * (`client.gate`) and pauses it on 429.
 */
export function sendThrough(client: ApiClient): Send {
  return async (request, signal) => {
    const response = await client.request({ method: request.method, path: request.path, body: request.body, idempotencyKey: request.idempotencyKey, signal, admitted: true });
    return { status: response.status, entryId: entryIdOf(response.data), replayed: isReplayed(response.headers['idempotent-replayed']) };
  };
}
