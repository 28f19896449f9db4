/**
 * The physical lines a reader read that are no record of their own. With the result lines (one per
 * record) they account for every line of the input: the summary's counts add up to `physical`.
 */
export interface InputTally {
  /** Physical lines read (the last line ended). */
  physical: number;
  /** The CSV header line. */
  header: number;
  /** Empty (or, in NDJSON, white-space only) lines. */
  blank: number;
  /** Lines after the first of a record that spans lines (a quoted CSV cell holding line breaks). */
  continuation: number;
}

export function newTally(): InputTally {
  return { physical: 0, header: 0, blank: 0, continuation: 0 };
}
