/**
 * One request of the log as the sandbox received it: path with its query, data time and arrival
 * time, the decoded query, the headers (redacted by the log, as everything here), the bodies with
 * JSON pretty-printed, and for a replay or a 409 the first request sent with its Idempotency-Key.
 */
import { get } from './api.js';
import { h, lines } from './dom.js';
import { localTime } from './format.js';
import { logFilterQuery } from '../../schemas/log-filter.js';
import type { JsonValue, LogEntry, LogPage } from '../../schemas/sandbox-admin.js';

/** "404 error", "201", or "dropped" for a connection cut unanswered. */
export function statusText(e: Pick<LogEntry, 'status'>): string {
  if (e.status === null) return 'dropped';
  return e.status >= 400 ? `${e.status} error` : String(e.status);
}

/** Path and query as sent. */
export function target(e: Pick<LogEntry, 'path' | 'query'>): string {
  return e.query === null ? e.path : `${e.path}?${e.query}`;
}

/** A JSON body indented; a body that is not JSON (or was cut) as it was kept. */
function bodyText(body: JsonValue | undefined): string {
  if (body === undefined) return '(none)';
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

/** name → value pairs as a definition list; `empty` when there are none. */
function pairs(label: string, entries: Array<[string, string]>, empty: string): HTMLElement {
  if (entries.length === 0) return h('p', { class: 'muted' }, empty);
  return h('dl', { class: 'fields pairs', 'aria-label': label }, ...entries.flatMap(([name, value]) => [h('dt', {}, name), h('dd', { class: 'path' }, value)]));
}

/**
 * The first request sent with this entry's Idempotency-Key by its organisation, when the entry is
 * a replay of it or a 409 against it: found with the log's own filter.
 */
async function firstWithKey(entry: LogEntry, key: string): Promise<LogEntry | undefined> {
  const query = new URLSearchParams(logFilterQuery({ idempotencyKey: key, ...(entry.org === null ? {} : { org: entry.org }) }));
  const page = await get<LogPage>(`logs?${query}&limit=1`);
  const first = page.entries[0];
  return first !== undefined && first.seq < entry.seq ? first : undefined;
}

export async function renderRequest(entry: LogEntry, open: (seq: number) => void): Promise<HTMLElement[]> {
  const headers = entry.headers ?? {};
  const key = headers['idempotency-key'];
  const linked = key !== undefined && (entry.replay || entry.status === 409);
  const first = linked ? await firstWithKey(entry, key) : undefined;
  const facts: Array<[string, string | HTMLElement]> = [
    ['Data time', localTime(Date.parse(entry.at), 'ms')],
    ['Arrived', localTime(Date.parse(entry.arrived_at), 'ms')],
    ['Route', entry.route ?? '—'],
    ['Organisation', entry.org ?? '—'],
    ['Error code', entry.code ?? '—'],
    ['Replay', entry.replay ? 'yes: the stored answer of the first request' : 'no'],
    ['Latency', `${entry.latency_ms} ms`],
    ['Fault', entry.fault === null ? 'none' : `injected: ${entry.fault}`],
  ];
  if (linked) {
    facts.push([
      'First request with this Idempotency-Key',
      first === undefined
        ? 'no longer in the log'
        : h('button', { type: 'button', class: 'link first-request', onclick: () => open(first.seq) }, `Request ${first.seq}: ${first.method} ${target(first)} → ${statusText(first)}`),
    ]);
  }
  return [
    h('h3', { tabindex: -1 }, `Request ${entry.seq}: ${entry.method} ${target(entry)} → ${statusText(entry)}`),
    h('dl', { class: 'fields', 'aria-label': 'Request facts' }, ...facts.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)])),
    h('h4', {}, 'Query'),
    pairs('Query parameters', Object.entries(entry.query_params).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]), '(no query)'),
    h('h4', {}, 'Request headers'),
    pairs('Request headers', Object.entries(headers), '(none kept)'),
    h('h4', {}, 'Request body'),
    h('pre', { class: 'request-body' }, ...lines(bodyText(entry.request_body))),
    h('h4', {}, 'Response body'),
    h('pre', { class: 'response-body' }, ...lines(bodyText(entry.response_body))),
  ];
}

/** The requests about one parcel (its paths, and the create that answered it), newest first, each opening in the Requests view. */
export async function parcelRequests(id: string, open: (seq: number) => void): Promise<HTMLElement> {
  const page = await get<LogPage>(`logs?${new URLSearchParams(logFilterQuery({ parcel: id }))}`);
  if (page.entries.length === 0) return h('p', { class: 'muted' }, 'No requests for this parcel in the log.');
  return h(
    'ol',
    { class: 'parcel-requests', 'aria-label': 'Requests for this parcel', reversed: true },
    ...page.entries
      .slice()
      .reverse()
      .map((e) =>
        h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => open(e.seq) }, `Request ${e.seq}`), ` ${localTime(Date.parse(e.at), 'ms')} ${e.method} ${target(e)} → ${statusText(e)}`),
      ),
  );
}
