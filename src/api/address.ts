import type { ApiClient, ApiResponse } from './http.js';
import { routePath } from './routes.js';

/** POST /deliveries/v1/address/validate. No Idempotency-Key, so it is never retried. */
export function validateAddress(client: ApiClient, body: unknown, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: routePath('address.validate'), body, signal });
}
