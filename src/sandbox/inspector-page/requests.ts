/**
 * The request log as requests arrive: long polls of the admin route's log, newest at the top. The page
 * keeps the newest KEPT entries and draws at most SHOWN rows, at most once a frame, so a bulk import
 * (a thousand requests a second) never freezes it.
 */
import { get } from './api.js';
import { fill, field, h, select } from './dom.js';
import { localTime } from './format.js';
import { renderRequest, statusText, target } from './request-detail.js';
import type { Overview } from '../../schemas/inspector.js';
import type { LogEntry, LogPage } from '../../schemas/sandbox-admin.js';

const KEPT = 1000;
const SHOWN = 200;
/** How long one poll waits for news (the server caps it at 60 s). */
const WAIT_MS = 25_000;
/** The shortest time between two polls that brought news. */
const POLL_GAP_MS = 250;

const STATUS_CLASSES: ReadonlyArray<readonly [string, string]> = [
  ['', 'any status'],
  ['2', '2xx success'],
  ['3', '3xx'],
  ['4', '4xx client error'],
  ['5', '5xx server error'],
  ['dropped', 'dropped (no answer)'],
];

export interface RequestsDeps {
  overview: Overview;
  report: (message: string, failed: boolean) => void;
}

export interface RequestsView {
  element: HTMLElement;
  /** Shows one request's detail (from another view: a parcel's requests). */
  open: (seq: number) => Promise<void>;
}

export function requestsView(d: RequestsDeps): RequestsView {
  const kept: LogEntry[] = [];
  const filters = { status: '', org: '', path: '' };
  const rows = h('tbody');
  const summary = h('p', { class: 'muted', 'aria-live': 'off' });
  const bodies = h('div', { class: 'bodies' });
  let latest = 0;
  let pending = false;

  const matches = (e: LogEntry) =>
    (filters.status === '' || (filters.status === 'dropped' ? e.status === null : e.status !== null && String(e.status).startsWith(filters.status))) &&
    (filters.org === '' || e.org === filters.org) &&
    (filters.path === '' || e.path.includes(filters.path));

  const row = (e: LogEntry) =>
    h(
      'tr',
      { 'data-seq': e.seq, class: e.status === null || e.status >= 400 ? 'error' : undefined },
      h('td', { 'data-label': 'Data time' }, h('button', { type: 'button', class: 'link', 'aria-label': `Show request ${e.seq}`, onclick: () => void open(e.seq) }, localTime(Date.parse(e.at), 'ms'))),
      h('td', { 'data-label': 'Arrived' }, localTime(Date.parse(e.arrived_at), 'ms')),
      h('td', { 'data-label': 'Organisation' }, e.org ?? '—'),
      h('td', { 'data-label': 'Method' }, e.method),
      h('td', { 'data-label': 'Path', class: 'path' }, target(e)),
      h('td', { 'data-label': 'Status' }, statusText(e)),
      h('td', { 'data-label': 'Error code' }, e.code ?? '—'),
      h('td', { 'data-label': 'Replay' }, e.replay ? 'replay' : '—'),
      h('td', { 'data-label': 'Latency' }, `${e.latency_ms} ms`),
    );

  /** The rows on screen by sequence number: a paint builds only the rows of new entries. */
  let drawn = new Map<number, HTMLTableRowElement>();
  function paint(): void {
    pending = false;
    const shown: LogEntry[] = [];
    for (let i = kept.length - 1; i >= 0 && shown.length < SHOWN; i--) if (matches(kept[i] as LogEntry)) shown.push(kept[i] as LogEntry);
    const next = new Map(shown.map((e) => [e.seq, drawn.get(e.seq) ?? row(e)]));
    drawn = next;
    fill(rows, ...next.values());
    summary.textContent = `${latest} requests so far; the newest ${kept.length} kept, ${shown.length} shown.`;
  }
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(paint);
  };

  async function open(seq: number): Promise<void> {
    try {
      const page = await get<LogPage>(`logs?after=${seq - 1}&limit=1&bodies=true`);
      const entry = page.entries.find((e) => e.seq === seq);
      if (entry === undefined) {
        fill(bodies, h('p', {}, `Request ${seq} is no longer in the log (it keeps the latest requests only).`));
        return;
      }
      fill(bodies, ...(await renderRequest(entry, (first) => void open(first))));
      bodies.querySelector('h3')?.focus();
    } catch (err) {
      d.report((err as Error).message, true);
    }
  }

  async function follow(): Promise<void> {
    for (let first = true; ; first = false) {
      try {
        const page = await get<LogPage>(`logs?after=${latest}&wait=${first ? 0 : WAIT_MS}`);
        kept.push(...page.entries);
        if (kept.length > KEPT) kept.splice(0, kept.length - KEPT);
        latest = Math.max(latest, page.latest);
        schedule();
        // Under a steady stream every poll would come back at once: ask a few times a second instead.
        if (page.entries.length > 0) await new Promise((resolve) => setTimeout(resolve, POLL_GAP_MS));
      } catch (err) {
        d.report(`request log: ${(err as Error).message}`, true);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }
  void follow();

  const change = (key: keyof typeof filters, value: string) => {
    filters[key] = value;
    schedule();
  };
  const pathInput = h('input', { name: 'path', type: 'search', placeholder: '/deliveries/v1/parcels', oninput: () => change('path', pathInput.value.trim()) });
  const head = ['Data time', 'Arrived', 'Organisation', 'Method', 'Path', 'Status', 'Error code', 'Replay', 'Latency'];
  const element = h(
    'div',
    { class: 'requests' },
    h(
      'form',
      { class: 'filters', onsubmit: (e) => e.preventDefault() },
      field('Status', select('status-class', STATUS_CLASSES, '', (v) => change('status', v))),
      field('Organisation', select('log-org', [['', 'all organisations'], ...d.overview.organisations.map((o) => [o.id, o.id] as const)], '', (v) => change('org', v))),
      field('Path contains', pathInput),
    ),
    summary,
    h('div', { class: 'split' }, h('div', { class: 'table-box' }, h('table', { class: 'list requests-table' }, h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))), rows)), bodies),
  );
  return { element, open };
}
