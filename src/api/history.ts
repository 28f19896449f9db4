import type { ApiClient, ApiResponse } from './http.js';
import { routePath } from './routes.js';

/** GET /deliveries/v1/parcels/{id}/events (at most 1000). */
export function listEvents(client: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('events.list', { id }), signal });
}

/** POST /deliveries/v1/parcels/{id}/events (201), with an Idempotency-Key. */
export function createEvent(client: ApiClient, id: string, body: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: routePath('events.create', { id }), body, idempotencyKey, signal });
}

/** GET /deliveries/v1/parcels/{id}/attempts. */
export function listAttempts(client: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('attempts.list', { id }), signal });
}

/** POST /deliveries/v1/parcels/{id}/attempts (201), with an Idempotency-Key. */
export function createAttempt(client: ApiClient, id: string, body: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: routePath('attempts.create', { id }), body, idempotencyKey, signal });
}
