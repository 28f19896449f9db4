import { NetworkError } from '../errors.js';
import { findItems, nextCursor } from './envelope.js';
import type { ApiClient, ApiRequest, ApiResponse } from './http.js';

/**
 * Every page of a list route, from `request.query.cursor` (or the first page) on, following
 * `data.next_cursor` until it is null, absent or empty. A server cannot keep it going forever: a
 * cursor handed back twice, MAX_EMPTY_PAGES empty pages in a row that still carry a cursor, or more
 * than MAX_PAGES pages end it with the service's fault (NetworkError, exit 8), after the pages
 * already yielded.
 */

/** 1,000,000 parcels at the spec's largest page (100): far past any organisation's list. */
export const MAX_PAGES = 10_000;
/** An empty page with a cursor says "more later"; a few in a row is a server going round. */
export const MAX_EMPTY_PAGES = 3;

function loop(what: string): NetworkError {
  return new NetworkError(`the service ${what}; stopped following its pages (a pagination loop is the service's fault)`, 'pagination_loop', 'the pages read before it were shown; report it to the service, or narrow the list (e.g. --status, --courier)');
}

export async function* paginate(client: ApiClient, request: ApiRequest, maxPages = MAX_PAGES): AsyncGenerator<ApiResponse, void, undefined> {
  const seen = new Set<string>();
  let cursor = request.query?.cursor;
  let empty = 0;
  for (let pages = 1; ; pages++) {
    const page = await client.request({ ...request, query: { ...request.query, cursor } });
    yield page;
    const next = nextCursor(page.data);
    if (next === undefined) return;
    if (seen.has(next)) throw loop(`returned the cursor "${next.length > 40 ? `${next.slice(0, 40)}…` : next}" twice`);
    empty = (findItems(page.data)?.length ?? 0) === 0 ? empty + 1 : 0;
    if (empty >= MAX_EMPTY_PAGES) throw loop(`sent ${MAX_EMPTY_PAGES} empty pages in a row, each with a next cursor`);
    if (pages >= maxPages) throw loop(`had more than ${maxPages} pages`);
    seen.add(next);
    cursor = next;
  }
}
