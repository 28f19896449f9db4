/** The scenarios the sandbox knows, built-in and loaded, with their steps as written; and usage per organisation and day. */
import { get } from './api.js';
import { fill, h } from './dom.js';
import { duration } from './format.js';
import type { Names } from './format.js';
import type { ScenarioCatalogueView, ScenarioStepView, ScenarioView, UsageReport } from '../../schemas/inspector.js';

function steps(list: ScenarioStepView[], names: Names): HTMLElement {
  return h(
    'ol',
    { class: 'steps' },
    ...list.map((step) => {
      const after = `after ${duration(step.after)}: `;
      if ('branch' in step) {
        return h('li', {}, `${after}one of (by weight):`, h('ul', {}, ...step.branch.map((b) => h('li', {}, `weight ${b.weight}:`, steps(b.steps, names)))));
      }
      const late = step.lateBy > 0 ? `, observed ${duration(step.lateBy)} earlier` : '';
      const what = 'event' in step ? `event: ${names.of('status', step.event)}` : `attempt: ${names.of('outcome', step.attempt.outcome)} (${names.of('reason', step.attempt.reason)})`;
      return h('li', {}, after, what, late);
    }),
  );
}

function scenariosView(list: ScenarioView[], names: Names): HTMLElement {
  return h(
    'div',
    { class: 'scenarios' },
    h('p', { class: 'muted' }, 'Assign one from a parcel (Parcels, open a parcel). Times are after the parcel was created or the scenario assigned.'),
    ...list.map((s) =>
      h('section', { class: 'scenario', 'aria-label': `Scenario ${s.name}` }, h('h3', {}, s.name, ' ', h('small', {}, s.builtin ? '(built-in)' : '(loaded)')), h('p', {}, s.description), steps(s.steps, names)),
    ),
  );
}

function usageView(report: UsageReport): HTMLElement {
  return h(
    'div',
    { class: 'usage' },
    ...report.organisations.map((org) => {
      const total = org.days.reduce((sum, day) => sum + day.requests, 0);
      return h(
        'section',
        { 'aria-label': `Usage of ${org.id}` },
        h('h3', {}, `${org.name} (${org.id}): ${total} requests in 30 days`),
        h(
          'table',
          { class: 'list usage-days' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day (UTC)'), h('th', { scope: 'col' }, 'Requests'), h('th', { scope: 'col' }, 'Errors'))),
          h(
            'tbody',
            {},
            ...[...org.days].reverse().map((day) => h('tr', {}, h('td', { 'data-label': 'Day (UTC)' }, day.date), h('td', { 'data-label': 'Requests' }, day.requests), h('td', { 'data-label': 'Errors' }, day.errors))),
          ),
        ),
      );
    }),
  );
}

/** Fills the Scenarios or Usage tab, read afresh each time it is opened. */
export async function catalogue(tab: 'Scenarios' | 'Usage', panel: HTMLElement, names: Names, report: (message: string, failed: boolean) => void): Promise<void> {
  try {
    if (tab === 'Scenarios') fill(panel, scenariosView((await get<ScenarioCatalogueView>('scenarios')).scenarios, names));
    else fill(panel, usageView(await get<UsageReport>('usage')));
  } catch (err) {
    report((err as Error).message, true);
  }
}
