/**
 * The sandbox's web inspector. The login link carries a one-time code in its fragment (never sent to
 * a server, so never logged); the page trades it for a session (an HttpOnly cookie and a page key it
 * keeps in its origin's storage) and takes it out of the address bar. The browser's history may keep
 * the link all the same: what protects it is that a code works once (a used link opened again makes
 * no session; a browser that holds one already is shown the page through it). Then: parcels, the
 * live request log, the test clock, scenarios and usage.
 */
import './styles.css';
import { ApiFailure, get, login } from './api.js';
import { catalogue } from './catalogue.js';
import { ClockModel, clockPanel, statusLine } from './clock.js';
import { fill, h } from './dom.js';
import { Names } from './format.js';
import { parcelsView } from './parcels.js';
import { requestsView } from './requests.js';
import type { Overview, ScenarioCatalogueView, ScenarioView } from '../../schemas/inspector.js';

const root = document.getElementById('app') as HTMLElement;

function loginScreen(message: string): void {
  document.title = 'Sandbox inspector: log in';
  fill(
    root,
    h(
      'main',
      { class: 'login' },
      h('h1', {}, 'Sandbox inspector'),
      h('p', { class: 'failed', role: 'alert' }, message),
      h('p', {}, 'Open the login link that ', h('code', {}, 'parcels sandbox serve'), ' printed, or print a new one for the running sandbox with ', h('code', {}, 'parcels sandbox ui'), '. A link works once.'),
    ),
  );
}

const TABS = ['Parcels', 'Requests', 'Scenarios', 'Usage'] as const;
type Tab = (typeof TABS)[number];

function shell(overview: Overview, scenarios: ScenarioView[], notice: string | undefined): void {
  const names = new Names(overview.reference);
  const clock = new ClockModel(overview.clock);
  const status = h('p', { class: 'status-line', role: 'status' });
  const report = (message: string, failed: boolean) => statusLine(status, message, failed);
  let current: Tab = 'Parcels';
  const panels = new Map<Tab, HTMLElement>();
  const tabs = new Map<Tab, HTMLButtonElement>();

  const show = (tab: Tab, focus = false) => {
    current = tab;
    for (const [name, button] of tabs) {
      button.setAttribute('aria-selected', String(name === tab));
      button.tabIndex = name === tab ? 0 : -1;
    }
    for (const [name, panel] of panels) panel.hidden = name !== tab;
    if (focus) tabs.get(tab)?.focus();
    if (tab === 'Usage' || tab === 'Scenarios') void catalogue(tab, panels.get(tab) as HTMLElement, names, report);
  };
  // Arrow keys move between tabs, as the ARIA tabs pattern has it.
  const onKey = (event: Event) => {
    const key = (event as KeyboardEvent).key;
    const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
    if (step !== 0) show(TABS[(TABS.indexOf(current) + step + TABS.length) % TABS.length] as Tab, true);
  };
  const nav = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Views' });
  for (const tab of TABS) {
    const button = h('button', { type: 'button', role: 'tab', id: `tab-${tab}`, 'aria-controls': `panel-${tab}`, onclick: () => show(tab), onkeydown: onKey }, tab);
    tabs.set(tab, button);
    nav.append(button);
    panels.set(tab, h('section', { role: 'tabpanel', id: `panel-${tab}`, 'aria-labelledby': `tab-${tab}`, class: 'panel' }));
  }
  const requests = requestsView({ overview, report });
  const showRequest = (seq: number) => {
    show('Requests');
    void requests.open(seq);
  };
  (panels.get('Parcels') as HTMLElement).append(parcelsView({ overview, names, clock, scenarios: () => scenarios, report, visible: () => current === 'Parcels', showRequest }));
  (panels.get('Requests') as HTMLElement).append(requests.element);
  fill(root, h('header', {}, h('h1', {}, 'Sandbox inspector'), clockPanel(clock, report)), status, h('main', {}, nav, ...panels.values()));
  show('Parcels');
  if (notice !== undefined) report(notice, false);
}

async function start(): Promise<void> {
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  /** Why the link's code was refused (used, expired); the page then opens only with a session this browser already holds. */
  let refused: string | undefined;
  if (code !== null) {
    // The code is spent by this request: a reload or a bookmark of the address bar should not offer it again.
    history.replaceState(null, '', location.pathname);
    try {
      await login(code);
    } catch (err) {
      refused = (err as Error).message;
    }
  }
  try {
    const [overview, { scenarios }] = await Promise.all([get<Overview>('overview'), get<ScenarioCatalogueView>('scenarios')]);
    shell(overview, scenarios, refused === undefined ? undefined : 'This login link was used already; this browser is still logged in, so the inspector opened with its session.');
  } catch (err) {
    if (refused !== undefined) loginScreen(`This login link cannot be used: ${refused}`);
    else if (err instanceof ApiFailure && (err.status === 401 || err.status === 403)) loginScreen(err.message);
    else loginScreen(`The sandbox did not answer: ${(err as Error).message}`);
  }
}

// A login link opened in a tab already on the page changes only the fragment, which loads nothing: load it.
window.addEventListener('hashchange', () => {
  if (new URLSearchParams(location.hash.slice(1)).has('code')) location.reload();
});
void start();
