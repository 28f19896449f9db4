/**
 * The physical lines a reader read that are no record of their own. With the result lines (one per
 * record) they account for every line of the input: the summary's counts add up to `lines`.
 */
export interface InputTally {
  /** Physical lines read (the last line ended). */
  lines: number;
  /** The CSV header line. */
  header: number;
  /** Empty (or, in NDJSON, white-space only) lines. */
  blank: number;
  /** Lines after the first of a record that spans lines (a quoted CSV cell holding line breaks). */
  continuation: number;
}

export function inputTally(): InputTally {
  return { lines: 0, header: 0, blank: 0, continuation: 0 };
}
