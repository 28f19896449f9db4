/**
 * The records of a bulk or outbox journal (one JSON object per line), shared by the writer
 * (journal.ts) and the reader (journal-read.ts).
 */

export interface JournalMeta {
  t: 'meta';
  v: number;
  batch: string;
  /** Opaque: who the requests go to (profile + base URL, or the sandbox database). */
  target: string;
  /** What was read: a file path, or "-" for standard input. */
  input: string;
  /** create, events, attempts, or outbox. */
  kind: string;
  created: number;
}

export interface SentRecord {
  t: 'sent';
  line: number;
  key: string;
  method: string;
  path: string;
  /** The exact body bytes (JSON text, so UTF-8). */
  body: string;
  /** When the request was written here (ms since the epoch); for the outbox, the capture time. */
  at: number;
  /** Outbox only: the command that captured it and the parcel it is about. */
  command?: string;
  parcel?: string;
}

export interface DoneRecord {
  t: 'done';
  line: number;
  status: number;
  id?: string;
}

/** The service answered with a final refusal (a 4xx other than 429): not applied, not retried by the outbox. */
export interface RejectedRecord {
  t: 'rejected';
  line: number;
  status: number;
  code: string;
}

/**
 * The compact form of a journal whose lines were all confirmed: the confirmed lines are in the
 * packed done file `file` (next to the journal, see DoneLines), which a re-run reads instead of
 * parsing every record. Records after it apply on top, as anywhere else.
 */
export interface CompactRecord {
  t: 'compact';
  file: string;
  count: number;
}

export type JournalRecord = JournalMeta | SentRecord | DoneRecord | RejectedRecord | CompactRecord;

/** What earlier runs left for a line not confirmed: `sent` alone is uncertain (maybe applied, maybe not). */
export interface LineState {
  sent?: SentRecord;
  rejected?: RejectedRecord;
}
