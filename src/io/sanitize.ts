import { replaceLineTerminators } from '../schemas/text.js';

// C0 and C1 control characters (ESC, BEL, CSI 0x9b, OSC 0x9d, …) other than line terminators,
// which become spaces first. Without ESC or a C1 introducer no escape sequence can start, so server
// text cannot retitle the window, plant a hyperlink or clear the screen (gh sanitises the same way).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Line breaks and tabs → spaces; anything else (styling included) is kept. */
export function oneLine(text: string): string {
  return replaceLineTerminators(text, ' ').replace(/\t/g, ' ');
}

/** One line of text, safe to show on a terminal: line breaks and tabs → spaces, other control characters removed. */
export function sanitize(text: string): string {
  return oneLine(text).replace(CONTROL, '');
}

/** Several lines, each sanitised; the line structure of `text` itself is kept. */
export function sanitizeLines(text: string): string {
  return text.split('\n').map(sanitize).join('\n');
}
