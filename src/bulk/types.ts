/** The narrow interface the bulk engine sends through lives in the request core. */
import type { SendRequest } from '../api/core/send.js';
import type { LineOutcome } from '../schemas/line-outcome.js';

export type { Send, SendRequest, SendResponse } from '../api/core/send.js';

/** Which command a bulk run feeds. */
export type BulkKind = 'create' | 'events' | 'attempts';

/** One result line of a run (NDJSON on stdout), in input order. */
export interface ResultLine {
  line: number;
  ok: boolean;
  /** What became of the line (src/schemas/line-outcome.ts). */
  outcome: LineOutcome;
  entry_id?: string;
  /** The last physical line of a record that spans lines (a CSV cell holding line breaks). */
  end_line?: number;
  /** A skipped line: the earlier batch's line it matched (its parcel is `entry_id`). */
  matched?: { batch: string; line: number };
  /** Why a skipped line was not sent. */
  reason?: string;
  /** `status` is absent when there was no HTTP answer (network) or nothing was sent (invalid line). */
  error?: { status?: number; code: string; message: string; field?: string };
  /** The line changed since an earlier run created this parcel from it: sent as a new request; that parcel is unchanged. */
  earlier_entry_id?: string;
}

export type WorkItem = (
  | {
      kind: 'send';
      line: number;
      request: SendRequest;
      /** The parcel a history line is about (its entry_id is the result's). */
      parcel: string | undefined;
      /** Fields of the line that were not part of the body. */
      ignored: number;
      /** Already in the journal from an earlier run: send it again without writing it anew. */
      journaled: boolean;
      /** Its identity in the journal, when not its Idempotency-Key (a line of a version-1 journal, resumed under its old key). */
      identity?: string;
      /** This line, as it was, created this parcel in an earlier run (the line has been edited since). */
      earlier?: string;
    }
  | { kind: 'replayed'; line: number; entryId: string | undefined }
  /** Not sent on purpose: it matches what an earlier batch created (`matched`), or a rule left it out (`reason`). */
  | { kind: 'skipped'; line: number; entryId: string | undefined; matched?: { batch: string; line: number }; reason: string }
  | { kind: 'invalid'; line: number; field: string; message: string }
) & {
  /** The last physical line of a record that spans lines: the result's `end_line`. */
  endLine?: number;
};

export type SendItem = Extract<WorkItem, { kind: 'send' }>;

/** Where the runner records what it sends and learns (the journal); absent = no journal. */
export interface RunRecorder {
  /**
   * The exact request of an item about to be sent. May only buffer: `flush` comes before the item
   * is sent. Items are recorded a batch at a time, before the first of them starts, so an item may
   * be recorded and then not sent (the run stops first): the next run resends it with the same key
   * and bytes, as it does any item left uncertain.
   */
  sent(item: SendItem): void;
  /** Writes what `sent` buffered (not necessarily fsync'd); called before those items are sent. */
  flush(): void;
  done(item: SendItem, status: number, entryId: string | undefined): void;
  rejected(item: SendItem, status: number, code: string): void;
}
