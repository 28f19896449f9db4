import type { Dispatcher, Pool } from 'undici';
import { ApiError, CancelledError, DryRunComplete, NetworkError, UsageError } from '../errors.js';
import { REDACTED, redactSecret } from './redact.js';

/**
 * The one place that talks HTTP. undici is loaded lazily (importing this module costs nothing),
 * from its internals rather than its index, and with V8 told to keep WebAssembly at the baseline
 * tier: see `loadTransport` and bench/client-oneshot.mjs for why and what it saves.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH';
export type QueryValue = string | number | boolean | undefined;

export interface ApiClientOptions {
  /** http(s) URL; a path prefix (e.g. https://host/api) is kept in front of every route. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** Per attempt: connect, headers and body together. */
  timeoutMs: number;
  /** Extra attempts after the first (0 = no retries). */
  retries: number;
  userAgent: string;
  /** One line per event (request, response, retry decision). Never receives the key. */
  trace?: ((line: string) => void) | undefined;
  /** --dry-run: describe the request to this writer instead of sending it, then throw DryRunComplete. */
  dryRun?: ((text: string) => void) | undefined;
  /** Shown while a request (with its retries) is under way, e.g. a spinner on a terminal. */
  waiting?: { start(text: string): Promise<void>; stop(): Promise<void> } | undefined;
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1); used for the backoff jitter. */
  random?: () => number;
  /** Maximum parallel connections to the service (default 16). */
  connections?: number;
}

export interface ApiRequest {
  method: HttpMethod;
  /** Route path starting with "/", e.g. /deliveries/v1/parcels. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised once; a Uint8Array is sent as is (exact bytes). */
  body?: unknown;
  idempotencyKey?: string;
  ifMatch?: string;
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  etag?: string;
  /** The parsed envelope (undefined for an empty body). */
  body: unknown;
  /** `body.data`. */
  data: unknown;
  /** How many attempts it took (1 = first try). */
  attempts: number;
}

export interface RequestDescription {
  method: HttpMethod;
  url: string;
  /** As they would be sent, Authorization masked with a fixed-width placeholder. */
  headers: Record<string, string>;
  /** The exact JSON text of the body. */
  body?: string;
  /** A runnable curl command that reads the key from $PARCELS_API_KEY. */
  curl: string;
}

export const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;
export const RETRY_AFTER_CAP_MS = 60_000;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

const PHRASES: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 412: 'Precondition Failed', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Entity', 428: 'Precondition Required', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 412: 'precondition_failed',
  422: 'validation_failed', 429: 'rate_limited', 500: 'internal_error', 503: 'unavailable',
};

export function statusPhrase(status: number): string {
  return PHRASES[status] ?? `HTTP ${status}`;
}

/** The error code used when the body gives none. */
export function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? `http_${status}`;
}

// ---------------------------------------------------------------------------------------------
// Transport loading

interface Transport {
  Pool: typeof Pool;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

let transport: Promise<Transport> | undefined;

/**
 * Loads undici's Pool and request function. Before the first load V8 is switched to
 * `--liftoff-only`: undici's HTTP parser is WebAssembly, and by default V8 re-optimises it with
 * TurboFan in background threads that a short-lived process must wait for at exit (120-190 ms
 * here). The baseline (Liftoff) code is plenty fast for a CLI. Measured in bench/client-oneshot.mjs.
 */
export function loadTransport(): Promise<Transport> {
  transport ??= (async () => {
    if (process.env.PARCELS_WASM_TIER_UP !== '1') {
      const v8 = await import('node:v8');
      v8.setFlagsFromString('--liftoff-only');
    }
    const [pool, request] = await Promise.all([import('undici/lib/dispatcher/pool.js'), import('undici/lib/api/api-request.js')]);
    return { Pool: pool.default, request: request.default };
  })();
  return transport;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Seconds from a Retry-After value (delta-seconds or an HTTP-date); undefined when unusable. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** Full-jitter exponential backoff before retry number `retry` (1 = first retry). */
export function backoffDelay(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** POSIX shell single-quoting. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Error code and message from any plausible error body; falls back to the status. */
export function errorDetails(status: number, body: unknown): { code: string; message: string } {
  let code: string | undefined;
  let message: string | undefined;
  if (isRecord(body)) {
    const error = body.error;
    if (isRecord(error)) {
      if (typeof error.code === 'string' && error.code !== '') code = error.code;
      if (typeof error.message === 'string' && error.message !== '') message = error.message;
    } else if (typeof error === 'string' && error !== '') {
      // A bare string is a code when it reads like one ("stale_etag"), else it is the message.
      if (/^[\w.:-]+$/.test(error)) code = error;
      else message = error;
    }
    if (code === undefined && typeof body.code === 'string' && body.code !== '') code = body.code;
    if (message === undefined) {
      for (const key of ['message', 'detail', 'title']) {
        const value = body[key];
        if (typeof value === 'string' && value !== '') {
          message = value;
          break;
        }
      }
    }
  }
  // With no message from the service, its own code still says more than the status phrase alone.
  return { code: code ?? codeForStatus(status), message: message ?? (code ? `${statusPhrase(status)} (${code})` : statusPhrase(status)) };
}

/** A NetworkError code for a transport failure. */
export function networkCode(error: unknown): string {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current as Record<string, unknown>); depth++) {
    const c = (current as { code?: unknown }).code;
    if (typeof c === 'string') codes.push(c);
    current = (current as { cause?: unknown }).cause;
  }
  for (const code of codes) {
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection_refused';
      case 'ECONNRESET':
      case 'EPIPE':
      case 'ECONNABORTED':
      case 'UND_ERR_SOCKET':
      case 'UND_ERR_CLOSED':
        return 'connection_reset';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
      case 'EAI_NONAME':
        return 'dns_failure';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return 'timeout';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
      case 'ENETDOWN':
        return 'host_unreachable';
      default:
        if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO') return 'bad_response';
        if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'tls_error';
    }
  }
  return 'network_error';
}

const NETWORK_MESSAGES: Readonly<Record<string, string>> = {
  connection_refused: 'connection refused',
  connection_reset: 'connection closed by the service before a complete answer',
  dns_failure: 'host name not found',
  timeout: 'no complete answer within the timeout',
  host_unreachable: 'host unreachable',
  tls_error: 'TLS handshake failed',
  bad_response: 'malformed HTTP response',
  network_error: 'network error',
};

function joinHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Attempted {
  status: number;
  headers: Record<string, string>;
  text: string;
}

class TimeoutSignal extends Error {}

// ---------------------------------------------------------------------------------------------

export class ApiClient {
  readonly baseUrl: string;
  readonly origin: string;
  private readonly basePath: string;
  private readonly options: ApiClientOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private pool: Pool | undefined;
  private closed = false;

  constructor(options: ApiClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new UsageError(`base URL must be an http:// or https:// URL (got "${options.baseUrl}")`, '--base-url');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`base URL must be an http:// or https:// URL (got "${options.baseUrl}")`, '--base-url');
    }
    if (url.username || url.password) throw new UsageError('base URL must not contain credentials', '--base-url');
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) throw new UsageError('timeout must be positive', '--timeout');
    if (!Number.isInteger(options.retries) || options.retries < 0) throw new UsageError('retries must be a non-negative integer', '--retries');
    this.options = options;
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = `${this.origin}${this.basePath}`;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
  }

  /** Path (with base path prefix) and query string, as sent on the request line. */
  requestTarget(req: Pick<ApiRequest, 'path' | 'query'>): string {
    if (!req.path.startsWith('/') || req.path.startsWith('//') || /[\s#?]/.test(req.path)) {
      // Guards the rule that the key only goes to the configured service: no absolute or
      // protocol-relative URLs, no smuggled query strings.
      throw new UsageError(`invalid request path "${req.path}"`);
    }
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value === undefined) continue;
      params.append(name, String(value));
    }
    const query = params.toString();
    return `${this.basePath}${req.path}${query ? `?${query}` : ''}`;
  }

  private bodyBytes(body: unknown): Buffer | undefined {
    if (body === undefined) return undefined;
    if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return Buffer.from(JSON.stringify(body), 'utf8');
  }

  /** Request headers in canonical case. `redact` replaces the key with a fixed-width mask. */
  private headers(req: ApiRequest, hasBody: boolean, redact: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.apiKey) headers.Authorization = `Bearer ${redact ? REDACTED : this.options.apiKey}`;
    if (hasBody) headers['Content-Type'] = 'application/json';
    if (req.idempotencyKey !== undefined) headers['Idempotency-Key'] = req.idempotencyKey;
    if (req.ifMatch !== undefined) headers['If-Match'] = req.ifMatch;
    headers['User-Agent'] = this.options.userAgent;
    return headers;
  }

  /** What `request` would send, for --dry-run. Never contains the key. */
  describe(req: ApiRequest): RequestDescription {
    const bytes = this.bodyBytes(req.body);
    const url = `${this.origin}${this.requestTarget(req)}`;
    const headers = this.headers(req, bytes !== undefined, true);
    const body = bytes?.toString('utf8');
    const parts = ['curl', '-sS'];
    if (req.method !== 'GET') parts.push('-X', req.method);
    parts.push(shellQuote(url));
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'User-Agent') continue;
      if (name === 'Authorization') parts.push('-H', '"Authorization: Bearer $PARCELS_API_KEY"');
      else parts.push('-H', shellQuote(`${name}: ${value}`));
    }
    if (body !== undefined) parts.push('--data-binary', shellQuote(body));
    const description: RequestDescription = { method: req.method, url, headers, curl: redactSecret(parts.join(' '), this.options.apiKey) };
    if (body !== undefined) description.body = body;
    return description;
  }

  /** Human-readable form of `describe`, as printed by --dry-run. */
  static formatDescription(d: RequestDescription): string {
    const lines = [`${d.method} ${d.url}`, ...Object.entries(d.headers).map(([n, v]) => `${n}: ${v}`)];
    if (d.body !== undefined) lines.push('', d.body);
    lines.push('', d.curl, '');
    return lines.join('\n');
  }

  private trace(line: string): void {
    this.options.trace?.(redactSecret(line, this.options.apiKey));
  }

  private retryable(req: ApiRequest): boolean {
    if (req.method === 'GET' || req.method === 'PATCH') return true;
    return req.idempotencyKey !== undefined;
  }

  async request(req: ApiRequest): Promise<ApiResponse> {
    if (this.options.waiting === undefined) return this.requestWithRetries(req);
    await this.options.waiting.start(`${req.method} ${req.path}`);
    try {
      return await this.requestWithRetries(req);
    } finally {
      await this.options.waiting.stop();
    }
  }

  private async requestWithRetries(req: ApiRequest): Promise<ApiResponse> {
    if (this.closed) throw new Error('ApiClient is closed');
    const target = this.requestTarget(req);
    const bytes = this.bodyBytes(req.body);
    if (this.options.dryRun) {
      this.options.dryRun(ApiClient.formatDescription(this.describe(req)));
      throw new DryRunComplete();
    }
    const headers = this.headers(req, bytes !== undefined, false);
    const maxAttempts = 1 + this.options.retries;
    const canRetry = this.retryable(req);
    const url = `${this.origin}${target}`;

    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw new CancelledError();
      if (this.options.trace) {
        this.trace(`> ${req.method} ${url}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ''}`);
        for (const [name, value] of Object.entries(this.headers(req, bytes !== undefined, true))) this.trace(`> ${name}: ${value}`);
        if (bytes !== undefined) this.trace(`> (${bytes.length} bytes of JSON)`);
      }
      const started = performance.now();
      let failure: ApiError | NetworkError;
      try {
        const answer = await this.send(req.method, target, headers, bytes, req.signal);
        const ms = Math.round(performance.now() - started);
        this.trace(`< ${answer.status} ${statusPhrase(answer.status)} (${ms} ms)`);
        for (const [name, value] of Object.entries(answer.headers)) this.trace(`< ${name}: ${value}`);
        const result = this.interpret(req, answer, attempt);
        if (!(result instanceof ApiError)) return result;
        failure = result;
      } catch (error) {
        if (error instanceof CancelledError || error instanceof UsageError) throw error;
        const ms = Math.round(performance.now() - started);
        failure = error instanceof NetworkError ? error : new NetworkError(String(error), 'network_error');
        this.trace(`< ${failure.code}: ${failure.message} (${ms} ms)`);
      }

      const retryStatus = failure instanceof ApiError ? RETRYABLE_STATUSES.has(failure.status) : true;
      if (!canRetry || !retryStatus || attempt >= maxAttempts) {
        if (failure instanceof NetworkError && attempt > 1) {
          throw new NetworkError(`${failure.message} (gave up after ${attempt} attempts)`, failure.code, failure.hint);
        }
        if (failure instanceof NetworkError && !canRetry && attempt < maxAttempts) {
          throw new NetworkError(
            `${failure.message}; not retried: a ${req.method} without an Idempotency-Key might have been applied`,
            failure.code,
            failure.hint,
          );
        }
        throw failure;
      }
      let delay: number;
      if (failure instanceof ApiError && failure.retryAfter !== undefined) {
        delay = Math.min(failure.retryAfter * 1000, RETRY_AFTER_CAP_MS);
      } else {
        delay = backoffDelay(attempt, this.random);
      }
      const reason = failure instanceof ApiError ? String(failure.status) : failure.code;
      this.trace(`retrying in ${delay} ms after ${reason} (attempt ${attempt + 1}/${maxAttempts})`);
      await this.sleep(delay);
    }
  }

  /** Turns an answer into a response (2xx) or an ApiError. */
  private interpret(req: ApiRequest, answer: Attempted, attempt: number): ApiResponse | ApiError {
    let body: unknown;
    let parsed = true;
    if (answer.text.trim() !== '') {
      try {
        body = JSON.parse(answer.text);
      } catch {
        parsed = false;
      }
    }
    if (answer.status >= 200 && answer.status < 300) {
      if (!parsed) {
        throw new NetworkError(`the service answered ${answer.status} with a body that is not JSON`, 'bad_response');
      }
      const response: ApiResponse = {
        status: answer.status,
        headers: answer.headers,
        body,
        data: isRecord(body) ? body.data : undefined,
        attempts: attempt,
      };
      if (answer.headers.etag !== undefined) response.etag = answer.headers.etag;
      return response;
    }
    const retryAfter = parseRetryAfter(answer.headers['retry-after']);
    let error: ApiError;
    if (answer.status >= 300 && answer.status < 400) {
      const location = answer.headers.location;
      error = new ApiError(
        answer.status,
        codeForStatus(answer.status),
        `the service answered ${answer.status} ${statusPhrase(answer.status)}${location ? ` to ${location}` : ''}; redirects are not followed`,
        parsed ? body : undefined,
        retryAfter,
        'check the base URL: the API key is only ever sent to the configured base URL',
      );
    } else {
      const { code, message } = errorDetails(answer.status, parsed ? body : undefined);
      error = new ApiError(answer.status, code, message, parsed ? body : undefined, retryAfter);
    }
    error.attempt = attempt;
    error.request = { method: req.method, path: req.path };
    return error;
  }

  private async getPool(): Promise<{ pool: Pool; request: Transport['request'] }> {
    const { Pool, request } = await loadTransport();
    if (this.closed) throw new Error('ApiClient is closed');
    this.pool ??= new Pool(this.origin, {
      connections: this.options.connections ?? 16,
      connect: { timeout: this.options.timeoutMs },
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
    return { pool: this.pool, request };
  }

  private async send(method: HttpMethod, target: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal | undefined): Promise<Attempted> {
    const { pool, request } = await this.getPool();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutSignal('timeout')), this.options.timeoutMs);
    const onAbort = (): void => controller.abort(new CancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await request.call(pool, { path: target, method, headers, body, signal: controller.signal });
      const text = await response.body.text();
      return { status: response.statusCode, headers: joinHeaders(response.headers), text };
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      if (controller.signal.aborted || error instanceof TimeoutSignal) {
        throw new NetworkError(`${NETWORK_MESSAGES.timeout} (${this.options.timeoutMs} ms)`, 'timeout');
      }
      const code = networkCode(error);
      const detail = error instanceof Error && error.message ? error.message : String(error);
      throw new NetworkError(`${NETWORK_MESSAGES[code] ?? 'network error'}: ${redactSecret(detail, this.options.apiKey)}`, code);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Closes the keep-alive connections. Further requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.close();
  }
}
