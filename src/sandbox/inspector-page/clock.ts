/** The test clock: shown ticking, moved with buttons; a change refreshes every view without a reload. */
import { post, get } from './api.js';
import { field, fill, h } from './dom.js';
import { localTime } from './format.js';
import type { ClockStatus } from '../../schemas/sandbox-admin.js';

/** The clock as last read, and an estimate of now between reads. */
export class ClockModel {
  private readAt = performance.now();
  private readonly listeners = new Set<() => void>();

  constructor(private status: ClockStatus) {}

  /** Data time now, epoch ms: the last reading plus the real time since, times the speed. */
  nowMs(): number {
    return this.status.frozen ? this.status.now_ms : this.status.now_ms + (performance.now() - this.readAt) * this.status.speed;
  }

  current(): ClockStatus {
    return this.status;
  }

  update(status: ClockStatus, moved: boolean): void {
    this.status = status;
    this.readAt = performance.now();
    if (moved) for (const listener of this.listeners) listener();
  }

  /** Called after the clock was moved from this page. */
  onMove(listener: () => void): void {
    this.listeners.add(listener);
  }
}

export function clockPanel(clock: ClockModel, report: (message: string, failed: boolean) => void): HTMLElement {
  const now = h('output', { class: 'clock-now', 'aria-live': 'off' });
  const state = h('span', { class: 'clock-state' });
  const typed = h('input', { name: 'advance-by', placeholder: '2h30m', size: 8, 'aria-describedby': 'clock-help' });
  const setTo = h('input', { name: 'set-to', type: 'datetime-local', step: 1 });
  const speed = h('input', { name: 'speed', type: 'number', min: '0.001', step: 'any', size: 6 });

  const move = async (action: string, body: Record<string, unknown>, done: string): Promise<void> => {
    try {
      clock.update(await post<ClockStatus>(`clock/${action}`, body), true);
      report(done, false);
    } catch (err) {
      report((err as Error).message, true);
    }
  };
  const advance = (by: string) => move('advance', { by }, `Clock advanced by ${by}.`);
  const freezeButton = h('button', { type: 'button', onclick: () => void move(clock.current().frozen ? 'resume' : 'freeze', {}, clock.current().frozen ? 'Clock running.' : 'Clock frozen.') });

  const paint = (): void => {
    const s = clock.current();
    now.textContent = localTime(clock.nowMs(), 'ms');
    state.textContent = s.frozen ? 'frozen' : `running at ${s.speed}×`;
    freezeButton.textContent = s.frozen ? 'Resume' : 'Freeze';
  };
  setInterval(paint, 1000);
  // Another process (or the CLI) may move the clock: read it every few seconds.
  setInterval(() => void get<ClockStatus>('clock').then((s) => clock.update(s, false), () => undefined), 5000);
  clock.onMove(paint);
  paint();

  const panel = h(
    'section',
    { class: 'clock', 'aria-label': 'Test clock' },
    h('p', { class: 'clock-line' }, h('strong', {}, 'Test clock '), now, ' ', state),
    h(
      'div',
      { class: 'clock-buttons' },
      h('button', { type: 'button', onclick: () => void advance('15m') }, '+15 min'),
      h('button', { type: 'button', onclick: () => void advance('1h') }, '+1 h'),
      h('button', { type: 'button', onclick: () => void advance('1d') }, '+1 day'),
      freezeButton,
    ),
    h(
      'form',
      { class: 'clock-forms', onsubmit: (e) => (e.preventDefault(), void advance(typed.value.trim())) },
      field('Advance by', typed),
      h('button', { type: 'submit' }, 'Advance'),
      h('small', { id: 'clock-help' }, 'e.g. 90s, 15m, 6h, 2d, 1h30m'),
    ),
    h(
      'form',
      {
        class: 'clock-forms',
        onsubmit: (e) => {
          e.preventDefault();
          const ms = new Date(setTo.value).getTime();
          if (Number.isNaN(ms)) report('Choose a date and time to set the clock to.', true);
          else void move('set', { to: ms }, `Clock set to ${localTime(ms, 'ms')}.`);
        },
      },
      field('Set to', setTo),
      h('button', { type: 'submit' }, 'Set'),
    ),
    h(
      'form',
      { class: 'clock-forms', onsubmit: (e) => (e.preventDefault(), void move('speed', { speed: Number(speed.value) }, `Clock speed ${speed.value}×.`)) },
      field('Speed', speed),
      h('button', { type: 'submit' }, 'Set speed'),
    ),
  );
  return panel;
}

/** Replaces a status line's text; `failed` marks it as an error in words, not only colour. */
export function statusLine(el: HTMLElement, message: string, failed: boolean): void {
  el.classList.toggle('failed', failed);
  fill(el, failed ? `Error: ${message}` : message);
}
