import type { ApiClient, ApiResponse } from './http.js';
import { routePath } from './routes.js';

/** GET /account/v1/couriers. */
export function getCouriers(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('couriers.list'), signal });
}

/** GET /account/v1/overview. */
export function getOverview(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('overview.get'), signal });
}

/** GET /account/v1/usage (daily totals over 30 days). */
export function getUsage(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('usage.daily'), signal });
}

/** GET /account/v1/usage/requests (latest 100 within 30 days). */
export function getUsageRequests(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('usage.requests'), signal });
}
