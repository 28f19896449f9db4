import { ApiError, CancelledError, DryRunComplete, NetworkError, UsageError } from '../errors.js';
import type { CredentialSource, DryRunRecorder, RequestDescription } from './dry-run.js';
import { curlCommand } from './dry-run.js';
import type { Answer } from './core/connection.js';
import { Connection } from './core/connection.js';
import { PoolGate, sharedGate } from './core/gate.js';
import { backoffDelay, isRepeatable, isRetryableStatus, pauseFor } from './core/policy.js';
import type { Sleep } from './core/sleep.js';
import { cancellation, sleep } from './core/sleep.js';
import { DEFAULT_MAX_RESPONSE_BYTES, serviceOf } from './core/transport.js';
import { interpretAnswer } from './core/answer.js';
import { NETWORK_MESSAGES, statusPhrase } from './failures.js';
import { redactExact } from './redact.js';
import type { ApiRequest, ApiResponse } from './request.js';
import { bodyBytes, requestHeaders, requestTarget } from './request.js';
import type { SkewObservation } from '../clock-skew/policy.js';
import { TEST_CLOCK_HEADER } from '../schemas/headers.js';

/**
 * The client of one-shot commands, pagination and `track --watch`, over the request core
 * (src/api/core/): retries by its policy, admission through the process's pool gate, recording
 * mode, errors. Everything the service sends back has gone through `redactKey` in the Connection
 * before this code, or any other, sees it.
 */

export type { ApiRequest, ApiResponse, HttpMethod, QueryValue } from './request.js';

/** Shown while requests (with their retries) are under way; see `waitingIndicator` in src/io/spinner.ts. */
export interface WaitingIndicator {
  start(text: string): Promise<void>;
  stop(): Promise<void>;
  notice(line: string): void;
}

/** Bodies in --verbose traces are cut after this many characters. */
const TRACE_BODY_CHARS = 2048;

export interface ApiClientOptions {
  /** http(s) URL without credentials (settings.ts checks it); a path prefix is kept in front of every route. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** Per attempt: connect, headers and body together. */
  timeoutMs: number;
  /** Extra attempts after the first (0 = no retries). */
  retries: number;
  userAgent: string;
  /** One line per event (request, response, bodies, retry decision). Never receives the key. */
  trace?: ((line: string) => void) | undefined;
  /** Recording mode (--dry-run): requests are recorded here and nothing is sent. */
  dryRun?: DryRunRecorder | undefined;
  /** Where recorded curl lines read the credential from (default: $PARCELS_API_KEY). */
  credential?: CredentialSource | undefined;
  waiting?: WaitingIndicator | undefined;
  /** Cancels every request of this client (e.g. aborted on SIGINT with a CancelledError reason). */
  signal?: AbortSignal | undefined;
  sleep?: Sleep;
  /** Epoch milliseconds; drives the clock-skew measurement (and the gate, with `sleep`, when either is given). */
  now?: () => number;
  /** Told the skew (service clock minus ours, seconds) measured from every answer's Date header, and whether that answer is fresh and from a test clock. */
  onSkew?: ((observation: SkewObservation) => void) | undefined;
  /** In [0, 1); used for the backoff jitter. */
  random?: () => number;
  /** Maximum parallel connections to the service (default 16). */
  connections?: number;
  /** Largest single response body accepted (default 32 MiB); list walks are page by page. */
  maxResponseBytes?: number;
  /** Admission (pauses, pace) shared by every request (default: the process's gate for the service; one of its own when `sleep` or `now` is given). */
  gate?: PoolGate;
}

/** What a client created by `withRetries` shares with its parent. */
interface Shared {
  connection: Connection;
  gate: PoolGate;
}

function truncated(text: string): string {
  return text.length <= TRACE_BODY_CHARS ? text : `${text.slice(0, TRACE_BODY_CHARS)}… (${text.length - TRACE_BODY_CHARS} more characters)`;
}

export class ApiClient {
  private readonly origin: string;
  private readonly basePath: string;
  private readonly options: ApiClientOptions;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly random: () => number;
  /** Admission of every request of this client (shared with the process's other senders to the service). */
  readonly gate: PoolGate;
  private readonly connection: Connection;
  private closed = false;
  /** False for a client from `withRetries`: its parent closes the connection. */
  private readonly ownsConnection: boolean;
  /** Service clock minus ours, in seconds, from the latest response's Date header. */
  lastSkewSeconds: number | undefined;

  constructor(options: ApiClientOptions, shared?: Shared) {
    const service = serviceOf(options.baseUrl);
    this.options = options;
    this.origin = service.origin;
    this.basePath = service.basePath;
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const scripted = options.sleep !== undefined || options.now !== undefined;
    this.gate = shared?.gate ?? options.gate ?? (scripted ? new PoolGate({ now: this.now, sleep: this.sleep }) : sharedGate(this.origin));
    this.ownsConnection = shared === undefined;
    this.connection =
      shared?.connection ??
      new Connection({
        origin: this.origin,
        apiKey: options.apiKey,
        timeoutMs: options.timeoutMs,
        connections: options.connections ?? 16,
        maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      });
  }

  /**
   * The same client (connections, gate, recording) with `retries` extra attempts: for a caller that
   * owns its own back-off (`track --watch`), so retries never stack. Closing it closes nothing.
   */
  withRetries(retries: number): ApiClient {
    return new ApiClient({ ...this.options, retries }, { connection: this.connection, gate: this.gate });
  }

  /** True in recording mode (--dry-run): requests are recorded, never sent. */
  get recording(): boolean {
    return this.options.dryRun !== undefined;
  }

  /** The requests recorded so far in recording mode, in order (for `--dry-run --json`); empty otherwise. */
  get recorded(): readonly RequestDescription[] {
    return this.options.dryRun?.requests ?? [];
  }

  /** What `request` would send. Never contains the key. */
  describe(req: ApiRequest): RequestDescription {
    const bytes = bodyBytes(req.body);
    const url = `${this.origin}${requestTarget(this.basePath, req)}`;
    const headers = requestHeaders(req, bytes !== undefined, { apiKey: this.options.apiKey, redact: true, userAgent: this.options.userAgent });
    const body = bytes?.toString('utf8');
    const description: RequestDescription = { method: req.method, url, headers, curl: curlCommand(req.method, url, headers, body, this.options.credential) };
    if (body !== undefined) description.body = body;
    return description;
  }

  /**
   * In recording mode, records a request the command would send after one it cannot get an answer
   * to (e.g. the PATCH after `patch --refresh`'s GET). Outside recording mode it does nothing.
   */
  record(req: ApiRequest): void {
    this.options.dryRun?.record(this.describe(req));
  }

  private trace(line: string): void {
    // Text from the service was redacted when it arrived; this catches the key in our own lines.
    this.options.trace?.(redactExact(line, this.options.apiKey));
  }

  private notice(line: string): void {
    this.options.waiting?.notice(line);
  }

  /** Sends a request (with retries); in recording mode records it and throws DryRunComplete. */
  async request(req: ApiRequest): Promise<ApiResponse> {
    if (this.options.dryRun) {
      this.record(req);
      throw new DryRunComplete();
    }
    const waiting = this.options.waiting;
    if (waiting === undefined) return this.requestWithRetries(req);
    await waiting.start(`${req.method} ${req.path}`);
    try {
      return await this.requestWithRetries(req);
    } finally {
      await waiting.stop();
    }
  }

  private signalFor(req: ApiRequest): AbortSignal | undefined {
    const signals = [this.options.signal, req.signal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  }

  private async requestWithRetries(req: ApiRequest): Promise<ApiResponse> {
    if (this.closed) throw new Error('ApiClient is closed');
    const target = requestTarget(this.basePath, req);
    const bytes = bodyBytes(req.body);
    const auth = { apiKey: this.options.apiKey, userAgent: this.options.userAgent };
    const headers = requestHeaders(req, bytes !== undefined, { ...auth, redact: false });
    const signal = this.signalFor(req);
    const maxAttempts = 1 + this.options.retries;
    const canRetry = isRepeatable(req.method, req.idempotencyKey);
    const url = `${this.origin}${target}`;

    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw cancellation(signal);
      if (!req.admitted) await this.gate.admit(signal);
      if (this.options.trace) {
        this.trace(`> ${req.method} ${url}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ''}`);
        for (const [name, value] of Object.entries(requestHeaders(req, bytes !== undefined, { ...auth, redact: true }))) this.trace(`> ${name}: ${value}`);
        if (bytes !== undefined) this.trace(`> ${truncated(bytes.toString('utf8'))}`);
      }
      const started = performance.now();
      let failure: ApiError | NetworkError;
      try {
        const answer = await this.connection.send(req.method, target, headers, bytes, signal);
        this.gate.observe(answer.headers);
        const ms = Math.round(performance.now() - started);
        this.measureSkew(answer);
        if (this.options.trace) {
          this.trace(`< ${answer.status} ${statusPhrase(answer.status)} (${ms} ms)`);
          for (const [name, value] of Object.entries(answer.headers)) this.trace(`< ${name}: ${value}`);
          if (answer.text !== '') this.trace(`< ${truncated(answer.text)}`);
        }
        const result = this.interpret(req, answer, attempt);
        if (!(result instanceof ApiError)) return result;
        failure = result;
      } catch (error) {
        if (error instanceof CancelledError || error instanceof UsageError) throw error;
        const ms = Math.round(performance.now() - started);
        failure = error instanceof NetworkError ? error : new NetworkError(String(error), 'network_error');
        this.trace(`< ${failure.code}: ${failure.message} (${ms} ms)`);
      } finally {
        if (!req.admitted) this.gate.settle();
      }

      const retryStatus = failure instanceof ApiError ? isRetryableStatus(failure.status) : failure.code !== 'response_too_large';
      if (!canRetry || !retryStatus || attempt >= maxAttempts) {
        if (failure instanceof ApiError) throw failure;
        let final = failure;
        if (attempt > 1) {
          final = new NetworkError(`${failure.message} (gave up after ${attempt} attempts)`, failure.code, failure.hint);
        } else if (retryStatus && !canRetry && attempt < maxAttempts) {
          final = new NetworkError(
            `${failure.message}; not retried: a ${req.method} without an Idempotency-Key might have been applied`,
            failure.code,
            failure.hint,
          );
        }
        final.request = { method: req.method, path: req.path, ...(req.idempotencyKey === undefined ? {} : { idempotencyKey: req.idempotencyKey }) };
        throw final;
      }
      const pause = pauseFor(failure);
      const delay = pause ?? backoffDelay(attempt, this.random);
      const reason = failure instanceof ApiError ? String(failure.status) : failure.code;
      this.trace(`retrying in ${delay} ms after ${reason} (attempt ${attempt + 1}/${maxAttempts})`);
      const what =
        failure instanceof ApiError
          ? failure.status === 429
            ? 'rate limited'
            : `${failure.status} ${statusPhrase(failure.status)} from the service`
          : (NETWORK_MESSAGES[failure.code] ?? failure.code);
      this.notice(`${what}; retrying in ${Math.ceil(delay / 1000)} s (${attempt}/${maxAttempts - 1})`);
      // The service asked for a pause: every request to it waits it out at the gate, not just this
      // retry. A backoff is this request's own.
      if (pause !== undefined) this.gate.pause(pause);
      else await this.sleep(delay, signal);
    }
  }

  private measureSkew(answer: Answer): void {
    const date = answer.headers.date;
    if (date === undefined) return;
    const serverMs = Date.parse(date);
    if (Number.isNaN(serverMs)) return;
    // The Date header is cut to the whole second, so the service's clock is up to 1 s past what it
    // says: rounding up lands on the true skew (a whole-second offset is measured exactly). `+ 0`
    // turns a -0 into 0.
    this.lastSkewSeconds = Math.ceil((serverMs - this.now()) / 1000) + 0;
    this.options.onSkew?.({
      seconds: this.lastSkewSeconds,
      // Only the service's own answer, just made, tells its clock: not an error page, not a cached copy.
      fresh: answer.status >= 200 && answer.status < 300 && answer.headers.age === undefined,
      testClock: answer.headers[TEST_CLOCK_HEADER.toLowerCase()] !== undefined,
    });
  }

  /** Turns an answer into a response (2xx) or an ApiError. */
  private interpret(req: ApiRequest, answer: Answer, attempt: number): ApiResponse | ApiError {
    const outcome = interpretAnswer(answer, this.now);
    if (outcome instanceof ApiError) {
      outcome.attempt = attempt;
      outcome.request = { method: req.method, path: req.path };
      return outcome;
    }
    const response: ApiResponse = { status: answer.status, headers: answer.headers, body: outcome.body, data: outcome.data, attempts: attempt };
    if (answer.headers.etag !== undefined) response.etag = answer.headers.etag;
    return response;
  }

  /** Closes the keep-alive connections. Further requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.ownsConnection) await this.connection.close();
  }
}
