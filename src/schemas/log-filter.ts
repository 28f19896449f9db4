/**
 * The request log's filters, one definition for every reader: the library's `logs(filter)`, the
 * admin route's query parameters (`GET /_sandbox/v1/logs?route=&method=&…`, which the inspector
 * page uses too) and the flags of `parcels sandbox logs`. Every filter is optional; given ones are
 * ANDed. They match what the log shows (redacted), and never change the page's `latest`.
 */
import { isRecord } from './record.js';
import type { JsonValue } from './sandbox-admin.js';

/** A class of statuses: `5xx` is every status from 500 to 599. */
export type StatusClass = `${1 | 2 | 3 | 4 | 5}xx`;

export interface LogFilter {
  /** The API route's name, e.g. `parcels.create` (src/schemas/routes.ts). */
  route?: string;
  /** The HTTP method, any case. */
  method?: string;
  /** The exact path, without the query string. */
  path?: string;
  /** One status (503) or a class of them ('5xx'). */
  status?: number | StatusClass;
  /** The organisation id of the key that authenticated. */
  org?: string;
  /** The Idempotency-Key header's value. */
  idempotencyKey?: string;
  /** A parcel's entry_id: its own requests (paths under /parcels/<id>) and the create that answered it. */
  parcel?: string;
}

/** The query parameter of each filter in the admin route. */
export const LOG_FILTER_PARAMS: Readonly<Record<keyof LogFilter, string>> = {
  route: 'route',
  method: 'method',
  path: 'path',
  status: 'status',
  org: 'org',
  idempotencyKey: 'idempotency_key',
  parcel: 'parcel',
};

/** The rule a status filter follows, in words for an error message. */
export const STATUS_FILTER_RULE = 'must be a status from 100 to 599 (503) or a class of them (5xx)';

/** `503` → 503, `5xx` (any case) → '5xx'; undefined when it is neither. */
export function parseStatusFilter(text: string): number | StatusClass | undefined {
  if (/^[1-5]\d\d$/.test(text)) return Number(text);
  if (/^[1-5]xx$/i.test(text)) return text.toLowerCase() as StatusClass;
  return undefined;
}

/** The filters as query parameters (names of LOG_FILTER_PARAMS; a filter not given is left out). */
export function logFilterQuery(filter: LogFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, param] of Object.entries(LOG_FILTER_PARAMS) as Array<[keyof LogFilter, string]>) {
    const value = filter[name];
    if (value !== undefined) query[param] = String(value);
  }
  return query;
}

/** The filters a query holds, or the first parameter that breaks its rule. */
export function logFilterFromQuery(query: URLSearchParams): { filter: LogFilter } | { invalid: { param: string; message: string } } {
  const filter: LogFilter = {};
  for (const [name, param] of Object.entries(LOG_FILTER_PARAMS) as Array<[keyof LogFilter, string]>) {
    const text = query.get(param);
    // An empty parameter (a form's empty field) filters nothing.
    if (text === null || text === '') continue;
    if (name === 'status') {
      const status = parseStatusFilter(text);
      if (status === undefined) return { invalid: { param, message: `query parameter ${param} ${STATUS_FILTER_RULE}` } };
      filter.status = status;
    } else {
      filter[name] = text;
    }
  }
  return { filter };
}

/** What a filter looks at in an entry (as shown: redacted; headers and the answer's body as the log keeps them). */
export interface FilteredEntry {
  method: string;
  path: string;
  route: string | null;
  org: string | null;
  status: number | null;
  headers: Record<string, string>;
  responseBody: JsonValue | undefined;
}

function statusMatches(status: number | null, wanted: number | StatusClass): boolean {
  if (typeof wanted === 'number') return status === wanted;
  return status !== null && Math.floor(status / 100) === Number(wanted[0]);
}

/** The parcel a create answered (its `data.entry_id`). */
function createdParcel(e: FilteredEntry): unknown {
  return e.route === 'parcels.create' && isRecord(e.responseBody) && isRecord(e.responseBody.data) ? e.responseBody.data.entry_id : undefined;
}

function aboutParcel(e: FilteredEntry, id: string): boolean {
  const wanted = id.toLowerCase();
  const at = e.path.toLowerCase().indexOf(`/parcels/${wanted}`);
  if (at !== -1) {
    const next = e.path[at + '/parcels/'.length + wanted.length];
    if (next === undefined || next === '/') return true;
  }
  return createdParcel(e) === wanted;
}

/** Whether an entry passes every filter given. */
export function matchesLogFilter(e: FilteredEntry, f: LogFilter): boolean {
  return (
    (f.route === undefined || e.route === f.route) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path === f.path) &&
    (f.status === undefined || statusMatches(e.status, f.status)) &&
    (f.org === undefined || e.org === f.org) &&
    (f.idempotencyKey === undefined || e.headers['idempotency-key'] === f.idempotencyKey) &&
    (f.parcel === undefined || aboutParcel(e, f.parcel))
  );
}
