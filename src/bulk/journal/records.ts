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
  /** Version 2: where the requests go, as the user knows it (profile and base URL, or the sandbox database). */
  where?: string;
}

export interface SentRecord {
  t: 'sent';
  /** The line it came from (or the outbox's capture number): to name it, never to find it. */
  line: number;
  /** The Idempotency-Key it is sent with. */
  key: string;
  /** The request's identity when it is not `key` (a line of a journal of version 1 resumed under its old key). */
  rid?: string;
  method: string;
  path: string;
  /** The exact body bytes (JSON text, so UTF-8). */
  body: string;
  /** When the request was written here (ms since the epoch); for the outbox, the capture time. */
  at: number;
  /** Outbox only: the command that captured it and the parcel it is about. */
  command?: string;
  parcel?: string;
  /** Outbox only: the bulk batch line it was queued from (`--queue --from`); a flush records its outcome there. */
  from?: { batch: string; line: number; k: string };
}

export interface DoneRecord {
  t: 'done';
  line: number;
  /** The identity of the request (version 2); version 1 named the line, whose last `sent` it answers. */
  k?: string;
  status: number;
  id?: string;
  /** Its line's pairing tag (src/bulk/pairing.ts); absent: unknown. */
  p?: number;
}

/** The service answered with a final refusal (a 4xx other than 429): not applied, not retried by the outbox. */
export interface RejectedRecord {
  t: 'rejected';
  line: number;
  k?: string;
  status: number;
  code: string;
}

/** Not sent by the run: kept in the outbox (`--queue --from`), which records its outcome here once flushed. */
export interface QueuedRecord {
  t: 'queued';
  line: number;
  k: string;
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
  /** SHA-256 (hex) of the done file's bytes, checked when it is read; absent in journals compacted before it was kept (read unchecked). */
  sha256?: string;
}

/** What a run read, written when it starts: a later run compares its input with it. */
export interface InputRecord {
  t: 'input';
  /** SHA-256 of the input's bytes. */
  sha256: string;
  /** The digest of its records as normalised (see bulk/fingerprint.ts), when known: the same for a re-saved file. */
  content?: string;
  /** Lines matching earlier batches were skipped (--skip-created) or created again (--create-again): a re-run of these bytes does the same. */
  matched?: 'skip' | 'create';
  /** The batch's first run's clock (Unix seconds): a relative time in the input (`now`, `-1h`) counts from it on every run. */
  now?: number;
}

/** How a run ended, in the words of its summary (`parcels batches` shows the last one). */
export interface RunRecord {
  t: 'run';
  created: number;
  replayed: number;
  failed: number;
  invalid: number;
  cancelled: number;
  /** Lines not sent on purpose (matching earlier batches); absent in journals written before issue 27. */
  skipped?: number;
  /** Lines kept in the outbox (`--queue`); absent in journals written before it (see `queuedOf`). */
  queued?: number;
  /** The whole input was read: its normalised digest. */
  content?: string;
  at: number;
}

export type JournalRecord = JournalMeta | SentRecord | DoneRecord | RejectedRecord | QueuedRecord | CompactRecord | InputRecord | RunRecord;

/** What earlier runs left for a request not confirmed: `sent` alone is uncertain (maybe applied, maybe not). */
export interface LineState {
  sent?: SentRecord;
  rejected?: RejectedRecord;
  /** On its way in the outbox. */
  queued?: QueuedRecord;
}

/** The identity a sent record is kept under. */
export function identityOf(record: SentRecord): string {
  return record.rid ?? record.key;
}

const isInt = (value: unknown): boolean => Number.isSafeInteger(value);
const isText = (value: unknown): boolean => typeof value === 'string';
const isOptionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** What each kind of record must hold for the reader to use it: a record without it is damage, said as such, never a crash. */
const RECORD_SHAPES: Readonly<Record<JournalRecord['t'], (record: Record<string, unknown>) => boolean>> = {
  meta: (r) => isInt(r.v) && isText(r.batch) && isText(r.target) && isText(r.input) && isText(r.kind),
  sent: (r) => isInt(r.line) && isText(r.key) && isOptionalText(r.rid) && isText(r.method) && isText(r.path) && isText(r.body),
  done: (r) => isInt(r.line) && isOptionalText(r.k) && isOptionalText(r.id) && (r.p === undefined || isInt(r.p)),
  rejected: (r) => isInt(r.line) && isOptionalText(r.k),
  queued: (r) => isInt(r.line) && isText(r.k),
  compact: (r) => isText(r.file) && isInt(r.count) && isOptionalText(r.sha256),
  input: (r) => isText(r.sha256),
  run: () => true,
};

/** A parsed line that is a record the reader can apply. */
export function isJournalRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const shape = Object.hasOwn(RECORD_SHAPES, record.t as string) ? RECORD_SHAPES[record.t as JournalRecord['t']] : undefined;
  return shape !== undefined && shape(record);
}
