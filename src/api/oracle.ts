import type { ApiClient, ApiResponse, QueryValue } from './http.js';
import { routePath } from './routes.js';

/** GET /deliveries/v1/oracle/{metric}; the metric and query are passed through (their values are not in the spec). */
export function getOracle(client: ApiClient, metric: string, query: Record<string, QueryValue> = {}, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('oracle.get', { metric }), query, signal });
}
