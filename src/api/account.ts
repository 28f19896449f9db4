import type { ApiClient, ApiResponse } from './http.js';
import { routePath } from './routes.js';

/** GET /account/v1/couriers. */
export function couriers(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('couriers.list'), signal });
}

/** GET /account/v1/overview. */
export function overview(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('overview.get'), signal });
}

/** GET /account/v1/usage (daily totals over 30 days). */
export function usage(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('usage.daily'), signal });
}

/** GET /account/v1/usage/requests (latest 100 within 30 days). */
export function usageRequests(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: routePath('usage.requests'), signal });
}

export { couriers as getCouriers, overview as getOverview, usage as getUsage, usageRequests as getUsageRequests };
