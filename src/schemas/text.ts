import * as z from 'zod/mini';
import { LINE_TERMINATOR } from './terminal-text.js';

const LINE_TERMINATORS = new RegExp(LINE_TERMINATOR.source, 'g');

export function hasLineTerminator(text: string): boolean {
  return LINE_TERMINATOR.test(text);
}

/** Every line terminator (a CRLF pair counts as one) replaced with `by`. */
export function replaceLineTerminators(text: string, by: string): string {
  return text.replace(LINE_TERMINATORS, by);
}

/**
 * The one text-field rule: a parcel's and a delivered address's text holds no control character
 * (C0 or C1: ESC, NUL, tab, line breaks, U+009B, DEL) and no Unicode line or paragraph separator.
 * The create and change flags, bulk files and the sandbox check it with the same schemas, so no
 * client of a shared sandbox can store text that writes into another's terminal. The spec asks only
 * "no line breaks and no NUL" of the delivered address and says nothing of the other fields: the
 * rest is this project's choice (docs/sandbox.md).
 */
export const CONTROL_TEXT_MESSAGE = 'must not contain control characters (line breaks, tabs, escape sequences, NUL)';

// The C0 and C1 controls and DEL (every line terminator but two among them) and U+2028, U+2029: the
// rule in one pass, as it runs on each text field of each bulk line.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_PLAIN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function isPlainText(text: string): boolean {
  return !NOT_PLAIN.test(text);
}

/** A text field: a string (else `typeMessage`) under the one text-field rule. */
export function plainText(typeMessage = 'must be a string') {
  return z.string({ error: typeError(typeMessage) }).check(z.refine(isPlainText, { message: CONTROL_TEXT_MESSAGE }));
}

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** A text field measured in UTF-8 bytes, as the spec's delivered-address group requires, under the one text-field rule. */
export function boundedText(minBytes: number, maxBytes: number) {
  return z.string({ error: typeError('must be a string') }).check(
    z.refine((s) => utf8Bytes(s) >= minBytes, {
      message: minBytes === 1 ? 'must not be empty' : `must be at least ${minBytes} UTF-8 bytes`,
      abort: true,
    }),
    z.refine((s) => utf8Bytes(s) <= maxBytes, { message: `must be at most ${maxBytes} UTF-8 bytes`, abort: true }),
    z.refine(isPlainText, { message: CONTROL_TEXT_MESSAGE }),
  );
}

/** Error map for a wrong type: a missing value reads "is required", anything else states the rule. */
export function typeError(rule: string) {
  return (issue: { input?: unknown }): string => (issue.input === undefined ? 'is required' : rule);
}

/** An integer within [min, max] inclusive. */
export function intRange(min: number, max: number) {
  return z.int({ error: typeError('must be an integer') }).check(
    z.gte(min, { error: `must be between ${min} and ${max}` }),
    z.lte(max, { error: `must be between ${min} and ${max}` }),
  );
}
