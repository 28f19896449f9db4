/**
 * RFC 4180 CSV: fields quoted when they hold a comma, quote, CR or LF; quotes doubled.
 *
 * A text cell a spreadsheet would read as a formula (OWASP "CSV injection": one starting with `=`,
 * `+`, `-`, `@`, a tab or a CR) is neutralised: a `'` goes in front and the cell is quoted, so
 * `@SUM(1+1)` from a parcel's `addition` is shown as text, never run. Numbers are ours, not text,
 * and stay as they are (`-5`). Raw values for machines: `--json` or `-o ndjson`.
 *
 * A time field's Unix seconds are written as ISO 8601 UTC (`2026-11-22T19:57:47Z`), which every
 * spreadsheet reads as a time; the service's numbers stay in `--json`, `-o ndjson` and `--jq`.
 *
 * On a terminal CSV is read by a person: every field passes the one sanitiser first (no control
 * character, format characters shown), as a table cell would. Piped, fields are the service's text.
 */
import { sanitize } from './sanitize.js';
import { isTimestampField, isTimestampValue } from './format.js';
import { isoSeconds } from '../schemas/time-text.js';

const FORMULA_START = /^[=+\-@\t\r]/;

/** The raw text of a value in CSV: strings as they are, null/undefined empty, objects as JSON. */
function csvValue(value: unknown): { text: string; fromText: boolean } {
  if (value === null || value === undefined) return { text: '', fromText: false };
  if (typeof value === 'string') return { text: value, fromText: true };
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return { text: String(value), fromText: false };
  return { text: JSON.stringify(value) ?? '', fromText: false };
}

function csvField({ text: raw, fromText }: { text: string; fromText: boolean }, terminal: boolean): string {
  const text = terminal ? sanitize(raw) : raw;
  if (fromText && FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The value of `column` as CSV writes it: a time field's Unix seconds as ISO 8601 UTC, anything else as it is. */
export function csvCell(column: string, value: unknown): unknown {
  return isTimestampField(column) && isTimestampValue(value) ? isoSeconds(value) : value;
}

/** One record line, terminated by "\n"; `terminal`: stdout is a terminal. */
export function csvRow(values: unknown[], { terminal }: { terminal: boolean }): string {
  return values.map((v) => csvField(csvValue(v), terminal)).join(',') + '\n';
}
