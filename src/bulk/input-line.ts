import { MAX_LINE_BYTES } from './input-lines.js';
import { INTEGER_PARCEL_FIELDS } from '../schemas/parcel-fields.js';

/** One line of bulk input as the engine takes it, and what the NDJSON and CSV readers share. */

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line where the record starts). */
  readonly line: number;
  /** The last physical line of a record that spans lines (a quoted CSV cell holding line breaks). */
  readonly endLine?: number;
  /** The value of its --id-column (the user's order or shipment number): never sent. */
  readonly identity?: string | undefined;
  /** The line's exact bytes, without its line terminator (empty for a line too long to keep). */
  readonly bytes: Buffer;
  /** The parsed object, or undefined when the line is not one (see `problem`). */
  readonly record: Record<string, unknown> | undefined;
  /** The bytes are the record's own JSON text (an NDJSON object line), so they can be sent as they are. */
  readonly json: boolean;
  readonly problem?: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Fields the spec types as integers: in CSV, where every cell is text, their digits become numbers. */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  ...INTEGER_PARCEL_FIELDS,
  'status', 'occurred_at', 'time_attempt', 'outcome', 'reason', 'attempt_no', 'delivered_location_type',
]);
/** The physical lines read that are not items: with the items, they add up to the physical lines. */
export interface InputTally {
  physical: number;
  header: number;
  blank: number;
  /** Lines after the first of a record spanning lines. */
  continuation: number;
}

export function newTally(): InputTally {
  return { physical: 0, header: 0, blank: 0, continuation: 0 };
}

export const TOO_LONG = `is too long (over ${MAX_LINE_BYTES / 1024 / 1024} MiB): skipped to its end`;
export const NOT_UTF8 = 'is not valid UTF-8 text';

/** A line that could not be read at all. */
export function badLine(line: number, bytes: Buffer, problem: string): InputLine {
  return { line, bytes, record: undefined, json: false, problem };
}

/** The line's text without a trailing CR; undefined when the bytes are not UTF-8. */
export function lineText(bytes: Buffer): { bytes: Buffer; text: string } | undefined {
  const trimmed = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
  try {
    return { bytes: trimmed, text: utf8.decode(trimmed) };
  } catch {
    return undefined;
  }
}
