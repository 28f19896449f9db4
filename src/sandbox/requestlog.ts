import type { LogEntry } from '../schemas/sandbox-admin.js';
import type { LogRedactor } from './redact.js';

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

/** Bytes of each body kept per entry at most (the rest is cut with a note), so the log stays bounded. */
const BODY_BYTES = 8192;
export const DEFAULT_LOG_SIZE = 1000;

/** A body as the log keeps it: whole when small, else its first bytes (a copy, so the big original is not held) and how many more there were. */
export type KeptBody = { whole: Buffer | string } | { head: Buffer | string; more: number };

/** Bytes a key may be written with, escaped or not (`sk_x`, `sk%5Fx`, `sk\u005fx`): see redact.ts. */
function keyByte(byte: number | undefined): boolean {
  return byte !== undefined && (/[A-Za-z0-9._~%\\-]/.test(String.fromCharCode(byte)));
}

/**
 * Where a long body is cut: at BODY_BYTES, moved back to the start of a run of key bytes that the
 * cut would split, so the kept head never ends with the first part of a key.
 */
function cutAt(bytes: Buffer): number {
  let cut = BODY_BYTES;
  if (!keyByte(bytes[cut])) return cut;
  while (cut > 0 && keyByte(bytes[cut - 1])) cut--;
  return cut;
}

/** Keeps a body for the log; small bodies (the usual case) by reference, without a copy. */
export function keepBody(body: Buffer | string | undefined): KeptBody | undefined {
  if (body === undefined) return undefined;
  // A string of at most BODY_BYTES / 4 characters is at most BODY_BYTES bytes of UTF-8.
  if (body.length <= (typeof body === 'string' ? BODY_BYTES / 4 : BODY_BYTES)) return { whole: body };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (bytes.length <= BODY_BYTES) return { whole: body };
  const cut = cutAt(bytes);
  return { head: Buffer.from(bytes.subarray(0, cut)), more: bytes.length - cut };
}

function redactedBody(kept: KeptBody | undefined, redactor: LogRedactor): KeptBody | undefined {
  if (kept === undefined) return undefined;
  if ('whole' in kept) return { whole: redactor.text(kept.whole.toString()) };
  return { head: redactor.text(kept.head.toString('utf8')), more: kept.more };
}

function bodyText(kept: KeptBody): string {
  if ('whole' in kept) return kept.whole.toString();
  return `${kept.head.toString()}… (${kept.more} more bytes)`;
}

/** The header list as an object, Authorization left out (the entry says only whether it was sent), each value redacted. */
function redactedHeaders(raw: readonly string[], redactor: LogRedactor): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name === 'authorization') continue;
    const value = redactor.text(raw[i + 1] as string);
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** What the responder hands the log; redacted and converted to a LogEntry only when read. */
export type LogInput = Omit<LogEntry, 'seq' | 'at' | 'query' | 'headers' | 'request_body' | 'response_body'> & {
  atMs: number;
  query: string;
  rawHeaders: readonly string[];
  requestBody: KeptBody | undefined;
  responseBody: KeptBody | undefined;
};

/** An entry in the ring; `headers` is set, and every text redacted, on its first read. */
type Stored = LogInput & { seq: number; headers?: Record<string, string> };

function shown(e: Stored & { headers: Record<string, string> }, bodies: boolean): LogEntry {
  const { atMs, query, rawHeaders: _raw, headers, requestBody, responseBody, ...rest } = e;
  const entry: LogEntry = { ...rest, query: query === '' ? null : query, at: new Date(atMs).toISOString() };
  if (bodies) {
    entry.headers = headers;
    if (requestBody !== undefined) entry.request_body = bodyText(requestBody);
    if (responseBody !== undefined) entry.response_body = bodyText(responseBody);
  }
  return entry;
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
    for (const listener of this.listeners) listener(() => shown(this.redacted(stored), true));
    if (this.waiters.size === 0) return;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** The entry with every text redacted, done on its first read and kept. */
  private redacted(e: Stored): Stored & { headers: Record<string, string> } {
    if (e.headers === undefined) {
      const r = this.redactor;
      e.path = r.text(e.path);
      e.query = r.text(e.query);
      e.requestBody = redactedBody(e.requestBody, r);
      e.responseBody = redactedBody(e.responseBody, r);
      e.headers = redactedHeaders(e.rawHeaders, r);
      e.rawHeaders = [];
    }
    return e as Stored & { headers: Record<string, string> };
  }

  /** Entries after `after` (oldest first, at most `limit`), bodies and headers only when `bodies`. */
  entries(after = 0, bodies = false, limit = this.size): LogEntry[] {
    const out: LogEntry[] = [];
    for (const e of this.ring) {
      if (e.seq <= after) continue;
      if (out.length === limit) break;
      out.push(shown(this.redacted(e), bodies));
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
