import { nextCursor } from './envelope.js';
import type { ApiClient, ApiRequest, ApiResponse } from './http.js';

/**
 * Every page of a list route, from `request.query.cursor` (or the first page) on, following
 * `data.next_cursor` until it is null, absent or empty. Stops with an error if the service hands
 * back a cursor it already gave (a loop).
 */
export async function* paginate(client: ApiClient, request: ApiRequest): AsyncGenerator<ApiResponse, void, undefined> {
  const seen = new Set<string>();
  let cursor = request.query?.cursor;
  for (;;) {
    const page = await client.request({ ...request, query: { ...request.query, cursor } });
    yield page;
    const next = nextCursor(page.data);
    if (next === undefined) return;
    if (seen.has(next)) throw new Error(`the service returned the cursor "${next}" twice; stopping to avoid a loop`);
    seen.add(next);
    cursor = next;
  }
}
