import { canonicalJson } from '../schemas/canonical-json.js';
import { ApiError, ConflictError } from '../errors.js';
import type { ApiClient, ApiResponse } from './http.js';
import { paginate } from './paginate.js';
import { routePath } from './routes.js';

export interface ParcelListParams {
  limit?: number;
  cursor?: string;
  courier?: string;
  status?: number;
}

export type PatchResult = ApiResponse & {
  /** A retried PATCH met 412, and a re-read showed the change already applied (by the lost first attempt). */
  recoveredAfter412?: true;
};

/** One page of GET /deliveries/v1/parcels, asking only for the filters the spec names. */
export function listParcels(client: ApiClient, query: ParcelListParams = {}, signal?: AbortSignal): Promise<ApiResponse> {
  return client.route('parcels.list', { query: { limit: query.limit, cursor: query.cursor, courier: query.courier, status: query.status }, signal });
}

/** Every page of the parcel list from `query.cursor` (or the first) on; see `paginate`. */
export function walkParcels(client: ApiClient, query: ParcelListParams = {}, signal?: AbortSignal): AsyncGenerator<ApiResponse, void, undefined> {
  return paginate(client, { method: 'GET', path: routePath('parcels.list'), query: { limit: query.limit, cursor: query.cursor, courier: query.courier, status: query.status }, signal });
}

function sameAsRequested(requested: unknown, actual: unknown): boolean {
  if (requested === null) return actual === undefined || actual === null;
  if (requested === '') return actual === undefined || actual === null || actual === '';
  return canonicalJson(requested) === canonicalJson(actual);
}

/** The fields of `body` whose requested value `data` does not show. */
export function unappliedFields(body: Record<string, unknown>, data: unknown): string[] {
  const record = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  return Object.keys(body).filter((key) => !record || !sameAsRequested(body[key], record[key]));
}

/**
 * PATCH /deliveries/v1/parcels/{id} with If-Match. Retries reuse the same If-Match; if a retry meets
 * 412 (the first attempt may have landed before its answer was lost), the parcel is re-read: when
 * every requested field already has the requested value (null → absent/null; "" → absent/null/""),
 * that is success, flagged `recoveredAfter412`; otherwise a ConflictError. A 412 on the first
 * attempt is the service's verdict and is thrown as the ApiError.
 */
export async function patchParcel(client: ApiClient, id: string, body: Record<string, unknown>, ifMatch: string, signal?: AbortSignal): Promise<PatchResult> {
  try {
    return await client.route('parcels.patch', { params: { id }, body, ifMatch, signal });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 412 || (error.attempt ?? 1) <= 1) throw error;
    const reread = await client.route('parcels.get', { params: { id }, signal });
    const missing = unappliedFields(body, reread.data);
    if (missing.length === 0) return { ...reread, recoveredAfter412: true };
    throw new ConflictError(
      `parcel ${id} changed: a retried PATCH got 412 (If-Match ${ifMatch} is stale) and the parcel does not show the requested ${missing.join(', ')}; ` +
        `someone else probably changed it in between`,
      // The hint (`parcels get ID` as the user's command line ran it) is written by describeError.
      undefined,
      id,
    );
  }
}

/** Recording mode (`patch --refresh --dry-run`): the GET, then the PATCH with the ETag that GET would return. */
export function recordRefreshedPatch(client: ApiClient, id: string, body: Record<string, unknown>): void {
  client.record({ method: 'GET', path: routePath('parcels.get', { id }) });
  client.record({ method: 'PATCH', path: routePath('parcels.patch', { id }), body, ifMatch: '<ETag from the GET>' });
}
