import type { LogFilter } from '../schemas/log-filter.js';
import { matchesLogFilter } from '../schemas/log-filter.js';
import type { JsonValue, LogEntry } from '../schemas/sandbox-admin.js';
import type { KeptBody } from './log-entry.js';
import { shownBody, shownHeaders, shownQuery } from './log-entry.js';
import type { LogRedactor } from './redact.js';

export { keepBody } from './log-entry.js';

/** What the pipeline hands the log about a request. */
export interface LoggedRequest {
  method: string;
  path: string;
  /** The query string without its `?` ('' when none). */
  query: string;
  route: string | null;
  org: string | null;
  /** Whether an Authorization header was sent (its value is never kept). */
  authorized: boolean;
  /** Node's raw header list (name, value, name, value…), kept by reference and read only when shown. */
  rawHeaders: readonly string[];
  body: Buffer | undefined;
}

export const DEFAULT_LOG_SIZE = 1000;

/** What the responder hands the log; redacted and converted to a LogEntry only when read. */
export type LogInput = Omit<LogEntry, 'seq' | 'at' | 'arrived_at' | 'query' | 'query_params' | 'headers' | 'request_body' | 'response_body'> & {
  /** Data time of the answer, epoch ms. */
  atMs: number;
  /** Wall-clock time of arrival, epoch ms. */
  arrivedWallMs: number;
  query: string;
  rawHeaders: readonly string[];
  requestBody: KeptBody | undefined;
  responseBody: KeptBody | undefined;
};

/** An entry's texts as shown, redacted (made on its first read and kept). */
interface Shown {
  path: string;
  query: string | null;
  query_params: Record<string, string | string[]>;
  headers: Record<string, string>;
  request_body: JsonValue | undefined;
  response_body: JsonValue | undefined;
}

/** An entry in the ring; `shown` is set on its first read, when the raw texts are let go. */
type Stored = LogInput & { seq: number; shown?: Shown };

function entryOf(e: Stored, shown: Shown, bodies: boolean): LogEntry {
  const { atMs, arrivedWallMs, query: _query, rawHeaders: _raw, requestBody: _req, responseBody: _res, shown: _shown, ...rest } = e;
  const entry: LogEntry = {
    ...rest,
    path: shown.path,
    query: shown.query,
    query_params: shown.query_params,
    at: new Date(atMs).toISOString(),
    arrived_at: new Date(arrivedWallMs).toISOString(),
  };
  if (bodies) {
    entry.headers = shown.headers;
    if (shown.request_body !== undefined) entry.request_body = shown.request_body;
    if (shown.response_body !== undefined) entry.response_body = shown.response_body;
  }
  return entry;
}

function passes(e: Stored, shown: Shown, filter: LogFilter | undefined): boolean {
  return filter === undefined || matchesLogFilter({ method: e.method, path: shown.path, route: e.route, org: e.org, status: e.status, headers: shown.headers, responseBody: shown.response_body }, filter);
}

/**
 * The latest requests in memory (a ring of `size` entries), with waiters for `--follow`. Bodies are
 * kept with the entry and handed out only when asked for. Adding costs a request next to nothing:
 * an entry is redacted (redact.ts: a hash per key-shaped run) once, on its first read, and every
 * read — the admin route, the inspector, the library's logs() — goes through entries(), so
 * nothing leaves the ring unredacted.
 */
export class RequestLog {
  private readonly ring: Stored[] = [];
  private seq = 0;
  private waiters = new Set<() => void>();
  private readonly listeners: Array<(read: () => LogEntry) => void> = [];

  constructor(
    private readonly redactor: LogRedactor,
    private readonly size = DEFAULT_LOG_SIZE,
  ) {}

  add(input: LogInput): void {
    const stored = input as Stored;
    stored.seq = ++this.seq;
    this.ring.push(stored);
    if (this.ring.length > this.size) this.ring.shift();
    for (const listener of this.listeners) listener(() => entryOf(stored, this.shown(stored), true));
    if (this.waiters.size === 0) return;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** The entry's texts redacted, made on its first read and kept (the raw texts are let go). */
  private shown(e: Stored): Shown {
    if (e.shown === undefined) {
      const r = this.redactor;
      e.shown = {
        path: r.text(e.path),
        query: e.query === '' ? null : r.text(e.query),
        query_params: shownQuery(e.query, r),
        headers: shownHeaders(e.rawHeaders, r),
        request_body: e.requestBody === undefined ? undefined : shownBody(e.requestBody, r),
        response_body: e.responseBody === undefined ? undefined : shownBody(e.responseBody, r),
      };
      e.path = '';
      e.query = '';
      e.rawHeaders = [];
      e.requestBody = undefined;
      e.responseBody = undefined;
    }
    return e.shown;
  }

  /** Entries after `after` that pass `filter` (oldest first, at most `limit`), bodies and headers only when `bodies`. */
  entries(after = 0, bodies = false, limit = this.size, filter?: LogFilter): LogEntry[] {
    const out: LogEntry[] = [];
    for (const e of this.ring) {
      if (e.seq <= after) continue;
      if (out.length === limit) break;
      const shown = this.shown(e);
      if (passes(e, shown, filter)) out.push(entryOf(e, shown, bodies));
    }
    return out;
  }

  /**
   * Hands `listener` each new entry as it is added, as a reader it calls when it likes: the reader
   * answers the entry with its headers and bodies, redacted like every other read (once per entry),
   * even after the ring has let the entry go. The log file (log-file.ts) reads them after the answer.
   */
  onAdd(listener: (read: () => LogEntry) => void): void {
    this.listeners.push(listener);
  }

  /** The newest sequence number (0 before the first request). */
  latest(): number {
    return this.seq;
  }

  /** Resolves once an entry after `after` exists, or after `timeoutMs`, or when `signal` aborts. */
  waitFor(after: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.seq > after || timeoutMs <= 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }
}
