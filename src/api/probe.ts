import { ApiError, NetworkError } from '../errors.js';
import type { Scope } from '../schemas/routes.js';
import type { ApiClient, ApiResponse } from './http.js';

/** The four scopes of the spec, in the order reports list them. */
export const SCOPES: readonly Scope[] = ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'];

/** A fixed valid Dutch address (Dam 1, Amsterdam): validating it needs deliveries:write and changes no data. */
export const PROBE_ADDRESS = { country: 'NL', postal_code: '1012JS', number: '1' } as const;

/** One request and what came of it. Cancellation and usage errors are thrown, never recorded. */
export interface Probe {
  /** Time to the whole (small) answer, or to the failure. */
  ms: number;
  response?: ApiResponse;
  error?: ApiError | NetworkError;
}

/**
 * One read-only (or, for deliveries:write, data-neutral) request per scope. deliveries:read is
 * probed with the couriers list, which also answers "does the host answer, is the key accepted".
 */
export function scopeRequests(client: ApiClient, signal: AbortSignal): Record<Scope, () => Promise<ApiResponse>> {
  return {
    'deliveries:read': () => client.route('couriers.list', { signal }),
    'deliveries:write': () => client.route('address.validate', { body: PROBE_ADDRESS, signal }),
    'usage:read': () => client.route('usage.daily', { signal }),
    'oracle:read': () => client.route('oracle.get', { params: { metric: 'coverage' }, signal }),
  };
}

export async function probe(request: () => Promise<ApiResponse>): Promise<Probe> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    const response = await request();
    return { ms: elapsed(), response };
  } catch (error) {
    if (error instanceof ApiError || error instanceof NetworkError) return { ms: elapsed(), error };
    throw error;
  }
}

/** What a scope's probe says of the key: it holds the scope, it lacks it (403), or the probe did not tell. */
export type ScopeState = 'held' | 'missing' | 'unknown';

export function scopeState(p: Probe): ScopeState {
  if (p.response !== undefined) return 'held';
  if (p.error instanceof ApiError && p.error.status === 403) return 'missing';
  return 'unknown';
}

/** Every scope's probe at once, in the order of SCOPES (no retries are added here: the client's own apply). */
export async function probeScopes(client: ApiClient, signal: AbortSignal): Promise<Record<Scope, Probe>> {
  const requests = scopeRequests(client, signal);
  const results = await Promise.all(SCOPES.map((scope) => probe(requests[scope])));
  return Object.fromEntries(SCOPES.map((scope, i) => [scope, results[i] as Probe])) as Record<Scope, Probe>;
}
