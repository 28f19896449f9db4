/** Every organisation's parcels, newest first, with filters; one opens with its timeline and scenario run. */
import { get } from './api.js';
import type { ClockModel } from './clock.js';
import { fill, field, h, select } from './dom.js';
import { localTime } from './format.js';
import type { Names } from './format.js';
import { renderDetail } from './parcel-detail.js';
import type { InspectedParcel, Overview, ParcelDetail, ParcelPage, ScenarioView } from '../../schemas/inspector.js';

export interface ParcelsDeps {
  overview: Overview;
  names: Names;
  clock: ClockModel;
  scenarios: () => ScenarioView[];
  report: (message: string, failed: boolean) => void;
  /** Whether the view is on screen (it reads only then). */
  visible: () => boolean;
  /** Opens one request in the Requests view. */
  showRequest: (seq: number) => void;
}

const REFRESH_MS = 1000;

export function parcelsView(d: ParcelsDeps): HTMLElement {
  const filters = { org: '', courier: '', status: '', q: '' };
  /** '' for the newest page, else the `before` of an older one. */
  let before = '';
  let open: string | undefined;
  const rows = h('tbody');
  const summary = h('p', { class: 'muted', 'aria-live': 'polite' });
  const detail = h('div', { class: 'detail' });
  const couriers = () => [...new Set(d.overview.organisations.filter((o) => filters.org === '' || o.id === filters.org).flatMap((o) => o.couriers.map((c) => c.code)))].sort();

  let courierSelect = select('courier', [], '', () => undefined);
  const courierSlot = h('span');
  const paintCouriers = () => {
    courierSelect = select('courier', [['', 'all couriers'], ...couriers().map((c) => [c, c] as const)], filters.courier, (v) => change('courier', v));
    fill(courierSlot, field('Courier', courierSelect));
  };
  const change = (key: keyof typeof filters, value: string) => {
    filters[key] = value;
    before = '';
    if (key === 'org') {
      filters.courier = '';
      paintCouriers();
    }
    void refresh();
  };
  paintCouriers();
  const search = h('input', { name: 'q', type: 'search', placeholder: 'id prefix, e.g. 3f1c', autocomplete: 'off', spellcheck: 'false', oninput: () => change('q', search.value.trim()) });

  const form = h(
    'form',
    { class: 'filters', onsubmit: (e) => e.preventDefault() },
    field('Organisation', select('org', [['', 'all organisations'], ...d.overview.organisations.map((o) => [o.id, `${o.name} (${o.id})`] as const)], '', (v) => change('org', v))),
    courierSlot,
    field('Status', select('status', [['', 'any status'], ...d.names.statuses().map(([code, name]) => [String(code), name] as const)], '', (v) => change('status', v))),
    field('Search', search),
  );

  const row = (p: InspectedParcel) =>
    h(
      'tr',
      { 'data-entry-id': p.entry_id, class: p.entry_id === open ? 'selected' : undefined },
      h('td', { 'data-label': 'Parcel' }, h('button', { type: 'button', class: 'link', 'aria-label': `Open parcel ${p.entry_id}`, onclick: () => void openParcel(p.entry_id) }, h('code', {}, p.entry_id))),
      h('td', { 'data-label': 'Organisation' }, p.org_id),
      h('td', { 'data-label': 'Courier' }, p.courier),
      h('td', { 'data-label': 'Status', class: `status status-${p.status}` }, d.names.of('status', p.status)),
      h('td', { 'data-label': 'Address' }, `${p.country} ${p.postal_code} ${p.number}${p.addition === null ? '' : ` ${p.addition}`}`),
      h('td', { 'data-label': 'Scenario' }, p.scenario ?? '—'),
      h('td', { 'data-label': 'Created' }, localTime(p.created_at)),
    );

  let reading = false;
  let shown = '';
  async function refresh(force = false): Promise<void> {
    if (reading) return;
    reading = true;
    try {
      const query = new URLSearchParams(Object.entries({ ...filters, before }).filter(([, v]) => v !== ''));
      const page = await get<ParcelPage>(`parcels?${query}`);
      fill(rows, ...page.parcels.map(row));
      summary.textContent = page.parcels.length === 0 ? 'No parcels match.' : `${page.parcels.length} parcel${page.parcels.length === 1 ? '' : 's'}${before === '' ? ', newest first' : ' (an older page)'}${page.next_before === null ? '.' : '; older ones on the next page.'}`;
      newer.hidden = before === '';
      older.hidden = page.next_before === null;
      older.value = String(page.next_before ?? '');
      if (open !== undefined) await showDetail(open, force);
    } catch (err) {
      d.report((err as Error).message, true);
    } finally {
      reading = false;
    }
  }

  /** Draws the open parcel again only when it changed (or the clock moved), so a control in it keeps its focus. */
  async function showDetail(id: string, force: boolean): Promise<void> {
    const data = await get<ParcelDetail>(`parcels/${encodeURIComponent(id)}`);
    const text = JSON.stringify(data);
    if (!force && text === shown) return;
    shown = text;
    const close = () => {
      open = undefined;
      shown = '';
      fill(detail);
      void refresh();
    };
    fill(detail, renderDetail(data, { ...d, assigned: () => void refresh(true), close }));
  }

  async function openParcel(id: string): Promise<void> {
    open = id;
    try {
      await showDetail(id, true);
      detail.querySelector('h2')?.focus();
      void refresh();
    } catch (err) {
      d.report((err as Error).message, true);
    }
  }

  const turn = (to: string) => {
    before = to;
    void refresh();
  };
  const newer = h('button', { type: 'button', hidden: true, onclick: () => turn('') }, 'Newest parcels');
  const older = h('button', { type: 'button', hidden: true, onclick: () => turn(older.value) }, 'Older parcels');

  setInterval(() => {
    if (d.visible()) void refresh();
  }, REFRESH_MS);
  d.clock.onMove(() => void refresh(true));
  void refresh();

  const head = ['Parcel', 'Organisation', 'Courier', 'Status', 'Address', 'Scenario', 'Created'];
  return h(
    'div',
    { class: 'parcels' },
    form,
    summary,
    h(
      'div',
      { class: 'split' },
      h('div', {}, h('table', { class: 'list' }, h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))), rows), h('p', { class: 'pages' }, newer, ' ', older)),
      detail,
    ),
  );
}
