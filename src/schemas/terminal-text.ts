/**
 * What of a service's text a person's screen may receive: the one rule behind every human format
 * (src/io/sanitize.ts), completion's descriptions and, read from below every layer, the inspector
 * page. Pure, and without imports: the completion bundle and a browser page load it as it is.
 *
 * - Line breaks (CRLF, LF, CR, VT, FF, NEL, U+2028, U+2029) and tabs become spaces.
 * - Every other C0 and C1 control character and DEL is removed: without ESC or a C1 introducer
 *   (U+009B is a CSI) no escape sequence can start, so server text cannot retitle the window, plant
 *   a hyperlink, clear the screen or the scrollback, or open a DCS/APC string (gh sanitises the same
 *   way); without BS nothing already shown is overwritten.
 * - Unicode format characters (category Cf: bidi overrides and isolates, zero-width spaces and
 *   joiners, tag characters, the byte-order mark) are shown as `<U+202E>`: invisible, they would
 *   make text read in another order or hide text in plain sight ("Trojan Source").
 */

/** The one line-terminator rule: single-line fields refuse these, human views turn them into spaces. */
export const LINE_TERMINATOR = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether the text holds a C0 or C1 control character or DEL (line breaks and tabs included). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

// One pass: a CRLF pair is one line break; then any control, line or paragraph separator, or format character.
// eslint-disable-next-line no-control-regex -- as above
const NOT_INERT = /\r\n|[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}/u;
const EACH_NOT_INERT = new RegExp(NOT_INERT.source, 'gu');
const SPACED = /^(?:\r\n|[\t\n\v\f\r\u0085\u2028\u2029])$/;

/** A format character as text a person can read: `<U+202E>`. */
export function codePointLabel(character: string): string {
  return `<U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

function inert(match: string): string {
  if (SPACED.test(match)) return ' ';
  return CONTROL_CHARACTER.test(match) ? '' : codePointLabel(match);
}

/** One line of a service's text, safe to show on a terminal or a page (see above). */
export function inertText(text: string): string {
  return NOT_INERT.test(text) ? text.replace(EACH_NOT_INERT, inert) : text;
}
