/** One parcel: its fields, one timeline of events and attempts (as `parcels track` orders them), its scenario run. */
import { buildTimeline, entryJson } from '../../schemas/timeline.js';
import { post } from './api.js';
import type { DetailField } from './field-list.js';
import { DETAIL_FIELDS } from './field-list.js';
import type { ClockModel } from './clock.js';
import { field, fill, h, select } from './dom.js';
import { localTime, relative } from './format.js';
import { parcelRequests } from './request-detail.js';
import type { Names } from './format.js';
import type { ParcelDetail, ScenarioView } from '../../schemas/inspector.js';
import type { ScenarioRunStep, ScenarioRunView } from '../../schemas/sandbox-admin.js';

export interface DetailDeps {
  names: Names;
  clock: ClockModel;
  scenarios: () => ScenarioView[];
  report: (message: string, failed: boolean) => void;
  /** After a scenario was assigned. */
  assigned: () => void;
  /** Opens one request in the Requests view. */
  showRequest: (seq: number) => void;
  close: () => void;
}

function fieldValue(field: DetailField, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (field.time && typeof value === 'number') return localTime(value);
  if (field.unit !== undefined && typeof value === 'number') return `${value} ${field.unit}`;
  return String(value);
}

/** What a report says, in words: "event: in_transit", "attempt 1: failed (not_at_home)". */
function reportText(names: Names, record: Record<string, unknown>, kind: string): string {
  if (kind === 'event') return `event: ${names.of('status', Number(record.status))}`;
  const no = record.attempt_no === undefined ? '' : ` ${String(record.attempt_no)}`;
  return `attempt${no}: ${names.of('outcome', Number(record.outcome))} (${names.of('reason', Number(record.reason))})`;
}

function timeline(detail: ParcelDetail, names: Names): HTMLElement {
  const entries = buildTimeline(detail.events, detail.attempts);
  if (entries.length === 0) return h('p', { class: 'muted' }, 'No events or attempts yet.');
  return h(
    'ol',
    { class: 'timeline', 'aria-label': 'Timeline' },
    ...entries.map((entry) => {
      const record = entryJson(entry);
      return h('li', { class: `entry ${entry.kind}` }, h('span', { class: 'when' }, entry.at === null ? 'time unknown' : localTime(entry.at)), ' ', h('span', { class: 'what' }, reportText(names, record, entry.kind)));
    }),
  );
}

function stepText(names: Names, step: ScenarioRunStep): string {
  const what = step.event !== undefined ? `event: ${names.of('status', step.event)}` : `attempt: ${names.of('outcome', step.attempt?.outcome ?? -1)} (${names.of('reason', step.attempt?.reason ?? -1)})`;
  return step.copies > 1 ? `${what} ×${step.copies}` : what;
}

function run(view: ScenarioRunView, d: DetailDeps): HTMLElement {
  const nowS = d.clock.nowMs() / 1000;
  const refused = new Map(view.refused.map((r) => [r.step, r.code]));
  return h(
    'div',
    { class: 'run' },
    h('p', {}, `Scenario ${view.scenario} (run ${view.run}), started ${localTime(view.started_at)}: `, view.done ? 'done.' : `${view.steps.filter((s) => s.applied).length} of ${view.steps.length} steps applied.`),
    h(
      'ol',
      { class: 'steps', 'aria-label': 'Scenario steps' },
      ...view.steps.map((step, n) =>
        h(
          'li',
          { class: step.applied ? 'past' : 'coming' },
          h('span', { class: 'mark' }, step.applied ? '✓ past' : '○ coming'),
          ' ',
          h('span', { class: 'when' }, `${localTime(step.arrives_at)} (${relative(step.arrives_at, nowS)})`),
          ' ',
          stepText(d.names, step),
          refused.has(n) ? ` — refused: ${refused.get(n) as string}` : null,
        ),
      ),
    ),
  );
}

function assignForm(id: string, d: DetailDeps): HTMLElement {
  const names = d.scenarios().map((s) => s.name);
  let chosen = names[0] ?? '';
  return h(
    'form',
    {
      class: 'assign',
      onsubmit: (e) => {
        e.preventDefault();
        post(`parcels/${encodeURIComponent(id)}/scenario`, { scenario: chosen }).then(
          () => (d.report(`Scenario ${chosen} assigned to ${id}.`, false), d.assigned()),
          (err: Error) => d.report(err.message, true),
        );
      },
    },
    field('Scenario', select('scenario', names.map((n) => [n, n] as const), chosen, (v) => (chosen = v))),
    h('button', { type: 'submit' }, 'Assign'),
  );
}

/** The parcel's requests, filled in once the log answers. */
function requestsOf(id: string, d: DetailDeps): HTMLElement {
  const box = h('div', { class: 'parcel-requests-box' }, h('p', { class: 'muted' }, 'Reading the request log…'));
  parcelRequests(id, d.showRequest).then(
    (list) => fill(box, list),
    (err: Error) => fill(box, h('p', { class: 'failed' }, `The request log could not be read: ${err.message}`)),
  );
  return box;
}

export function renderDetail(detail: ParcelDetail, d: DetailDeps): HTMLElement {
  const p = detail.parcel;
  return h(
    'article',
    { class: 'parcel', 'aria-label': `Parcel ${p.entry_id}`, 'data-entry-id': p.entry_id },
    h('div', { class: 'detail-head' }, h('h2', { tabindex: -1 }, 'Parcel ', h('code', {}, p.entry_id)), h('button', { type: 'button', onclick: d.close }, 'Close')),
    h('p', { class: `status status-${p.status}` }, 'Status: ', h('strong', { class: 'parcel-status' }, d.names.of('status', p.status))),
    h('dl', { class: 'fields' }, ...DETAIL_FIELDS.flatMap((f) => [h('dt', {}, f.name), h('dd', {}, fieldValue(f, p[f.name]))])),
    h('h3', {}, 'Timeline'),
    timeline(detail, d.names),
    h('h3', {}, 'Scenario'),
    detail.scenario === null ? h('p', { class: 'muted' }, 'No scenario.') : run(detail.scenario, d),
    assignForm(p.entry_id, d),
    h('h3', {}, 'Requests for this parcel'),
    requestsOf(p.entry_id, d),
  );
}
