import { LINE_TERMINATOR, inertText } from '../schemas/terminal-text.js';

/**
 * The one sanitiser of human output: every table, key/value view, CSV or jq line on a terminal,
 * message, error, hint and trace passes a service's text through `sanitize` (the rule itself is
 * src/schemas/terminal-text.ts, shared with completion and the inspector page).
 */

const LINE_TERMINATORS = new RegExp(LINE_TERMINATOR.source, 'g');

/** Line breaks and tabs → spaces; anything else (our own styling included) is kept. */
export function oneLine(text: string): string {
  return text.replace(LINE_TERMINATORS, ' ').replace(/\t/g, ' ');
}

/** One line of a service's text, safe to show on a terminal: no control character, format characters shown as `<U+202E>`. */
export function sanitize(text: string): string {
  return inertText(text);
}

/** Several lines, each sanitised; the line structure of `text` itself is kept. */
export function sanitizeLines(text: string): string {
  return text.split('\n').map(sanitize).join('\n');
}
