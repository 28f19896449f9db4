import * as z from 'zod/mini';

/**
 * The one line-terminator rule: CRLF and every Unicode line terminator (LF, CR, VT, FF, NEL, LINE
 * SEPARATOR, PARAGRAPH SEPARATOR). Single-line fields refuse them; human views turn them into spaces.
 */
const LINE_TERMINATOR = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
const LINE_TERMINATORS = new RegExp(LINE_TERMINATOR.source, 'g');

export function hasLineTerminator(text: string): boolean {
  return LINE_TERMINATOR.test(text);
}

/** Every line terminator (a CRLF pair counts as one) replaced with `by`. */
export function replaceLineTerminators(text: string, by: string): string {
  return text.replace(LINE_TERMINATORS, by);
}

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** A single-line text field measured in UTF-8 bytes, as the spec's delivered-address group requires. */
export function boundedText(minBytes: number, maxBytes: number) {
  return z.string({ error: typeError('must be a string') }).check(
    z.refine((s) => utf8Bytes(s) >= minBytes, {
      message: minBytes === 1 ? 'must not be empty' : `must be at least ${minBytes} UTF-8 bytes`,
      abort: true,
    }),
    z.refine((s) => utf8Bytes(s) <= maxBytes, { message: `must be at most ${maxBytes} UTF-8 bytes`, abort: true }),
    z.refine((s) => !hasLineTerminator(s) && !s.includes('\0'), { message: 'must not contain line breaks or NUL characters' }),
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
