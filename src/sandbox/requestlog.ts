import type { LogEntry } from '../schemas/sandbox-admin.js';
import type { LogRedactor } from './redact.js';

/** What the pipeline hands the log about a request (never its headers). */
export interface LoggedRequest {
  method: string;
  path: string;
  route: string | null;
  org: string | null;
  /** Whether an Authorization header was sent (its value is never kept). */
  authorized: boolean;
  body: Buffer | undefined;
}

/** Bytes of each body kept per entry at most (the rest is cut with a note), so the log stays bounded. */
const BODY_BYTES = 8192;
export const DEFAULT_LOG_SIZE = 1000;

/** A body as the log keeps it: whole when small, else its first BODY_BYTES bytes (a copy, so the big original is not held) and its size. */
export type KeptBody = { whole: Buffer | string } | { head: Buffer; size: number };

/** Keeps a body for the log; small bodies (the usual case) by reference, without a copy. */
export function keepBody(body: Buffer | string | undefined): KeptBody | undefined {
  if (body === undefined) return undefined;
  // A string of at most BODY_BYTES / 4 characters is at most BODY_BYTES bytes of UTF-8.
  if (body.length <= (typeof body === 'string' ? BODY_BYTES / 4 : BODY_BYTES)) return { whole: body };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return bytes.length <= BODY_BYTES ? { whole: body } : { head: Buffer.from(bytes.subarray(0, BODY_BYTES)), size: bytes.length };
}

/** A kept body with every known key taken out (a copy only when one was found). */
function redactedBody(kept: KeptBody | undefined, redactor: LogRedactor): KeptBody | undefined {
  if (kept === undefined) return undefined;
  if ('whole' in kept) {
    const text = kept.whole.toString();
    const clean = redactor.text(text);
    return clean === text ? kept : { whole: clean };
  }
  const head = kept.head.toString('utf8');
  const clean = redactor.text(head);
  return clean === head ? kept : { head: Buffer.from(clean), size: kept.size - kept.head.length + Buffer.byteLength(clean) };
}

function bodyText(kept: KeptBody): string {
  if ('whole' in kept) return kept.whole.toString();
  return `${kept.head.toString('utf8')}… (${kept.size - kept.head.length} more bytes)`;
}

/** What the responder hands the log; converted to a LogEntry only when read. */
export type LogInput = Omit<LogEntry, 'seq' | 'at' | 'request_body' | 'response_body'> & {
  atMs: number;
  requestBody: KeptBody | undefined;
  responseBody: KeptBody | undefined;
};

type Stored = LogInput & { seq: number };

function shown(e: Stored, bodies: boolean): LogEntry {
  const { atMs, requestBody, responseBody, ...rest } = e;
  const entry: LogEntry = { ...rest, at: new Date(atMs).toISOString() };
  if (bodies) {
    if (requestBody !== undefined) entry.request_body = bodyText(requestBody);
    if (responseBody !== undefined) entry.response_body = bodyText(responseBody);
  }
  return entry;
}

/**
 * The latest requests in memory (a ring of `size` entries), with waiters for `--follow`. Bodies are
 * kept with the entry and handed out only when asked for; entries are formatted when read, so
 * logging costs a request next to nothing.
 */
export class RequestLog {
  private readonly ring: Stored[] = [];
  private seq = 0;
  private waiters = new Set<() => void>();

  constructor(
    private readonly redactor: LogRedactor,
    private readonly size = DEFAULT_LOG_SIZE,
  ) {}

  add(input: LogInput): void {
    input.path = this.redactor.text(input.path);
    input.requestBody = redactedBody(input.requestBody, this.redactor);
    input.responseBody = redactedBody(input.responseBody, this.redactor);
    (input as Stored).seq = ++this.seq;
    this.ring.push(input as Stored);
    if (this.ring.length > this.size) this.ring.shift();
    if (this.waiters.size === 0) return;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** Entries after `after` (oldest first, at most `limit`), bodies only when `bodies`. */
  entries(after = 0, bodies = false, limit = this.size): LogEntry[] {
    const out: LogEntry[] = [];
    for (const e of this.ring) {
      if (e.seq <= after) continue;
      if (out.length === limit) break;
      out.push(shown(e, bodies));
    }
    return out;
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
