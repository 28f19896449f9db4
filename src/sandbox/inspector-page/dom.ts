/**
 * Builds elements. Every value from the sandbox goes in as text (a Text node or an attribute value),
 * never as markup: this page has no innerHTML, so a parcel's `<img onerror=…>` is shown, not run.
 * Text goes through the one rule for a service's text (schemas/terminal-text.ts), as on a terminal:
 * control characters removed, bidi overrides, zero-width and tag characters shown as `<U+202E>`.
 */
import { inertText } from '../../schemas/terminal-text.js';

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : typeof child === 'string' ? inertText(child) : child);
  }
}

/** Text of several lines (a pretty-printed body): each line through the one rule, the line feeds between them kept. */
export function lines(text: string): Child[] {
  return text.split('\n').flatMap((line, n) => (n === 0 ? [line] : [document.createTextNode('\n'), line]));
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A labelled form control: the label names it for screen readers and keyboard users. */
export function field(label: string, control: HTMLElement): HTMLLabelElement {
  return h('label', { class: 'field' }, h('span', {}, label), control);
}

/** A select of [value, text] options with the current value chosen. */
export function select(name: string, options: ReadonlyArray<readonly [string, string]>, value: string, onChange: (value: string) => void): HTMLSelectElement {
  const el = h('select', { name, onchange: () => onChange(el.value) }, ...options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  return el;
}
