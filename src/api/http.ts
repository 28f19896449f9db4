import { waitText } from '../schemas/time-text.js';
import { ApiError, DryRunComplete, NetworkError } from '../errors.js';
import type { RequestDescription } from './dry-run.js';
import { curlCommand } from './dry-run.js';
import { entryIdOf, interpretAnswer } from './core/answer.js';
import type { Call } from './core/chain.js';
import { compose, exchangeStep, pacePiece, redactionPiece, skewPiece, tracePiece } from './core/chain.js';
import type { Answer } from './core/exchange.js';
import { Transport } from './core/exchange.js';
import { PoolGate, sharedGate } from './core/gate.js';
import { isRepeatable, OutageCircuit } from './core/policy.js';
import type { Redaction } from './core/redaction.js';
import { redaction } from './core/redaction.js';
import type { Retried } from './core/retry.js';
import { GaveUp, retryPiece } from './core/retry.js';
import type { Send, SendResponse } from './core/send.js';
import type { Sleep } from './core/sleep.js';
import { sleep } from './core/sleep.js';
import { DEFAULT_MAX_RESPONSE_BYTES, serviceOf } from './core/transport.js';
import { retriedFailureText } from './failures.js';
import { redactExact } from './redact.js';
import type { ApiRequest, ApiResponse } from './request.js';
import { bodyBytes, requestHeaders, requestTarget, wireHeaders } from './request.js';
import { isReplayed } from '../schemas/headers.js';
import type { AdminRouteName, RouteName } from '../schemas/routes.js';
import { anyRouteByName } from '../schemas/routes.js';
import { routePath } from './routes.js';
import type { ApiClientOptions, RouteCall } from './client-options.js';

/**
 * The one client of the service, over the request chain (src/api/core/chain.ts): one-shot commands,
 * pagination, `track --watch` (`request`) and every line of a bulk run or an outbox flush (`send`).
 * Its pieces are composed once, here: recording mode, headers (built once per client), the retry
 * piece with admission (src/api/core/retry.ts), the pace, the trace, the clock skew, the redaction
 * and the exchange at the bottom. Everything the service sends back is masked by the redaction
 * piece before this code, or any other, sees it. Built only by src/context.ts (scripts/check-imports.mjs).
 */

export type { ApiRequest, ApiResponse, HttpMethod, QueryValue } from './request.js';
export type { ApiClientOptions, RouteCall, WaitingIndicator } from './client-options.js';

/** A request's attempt as the retry piece takes it: the answer pieces' call, and how to count. */
type RetriedCall = Call & Retried;

// Idempotency keys come from our own derivation or the journal; still never a control character in a header.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export class ApiClient {
  private readonly origin: string;
  private readonly basePath: string;
  private readonly options: ApiClientOptions;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly random: () => number;
  /** Admission of every request of this client (shared with the process's other senders to the service). */
  readonly gate: PoolGate;
  private readonly transport: Transport;
  private readonly redaction: Redaction;
  /** The outage stop of this client's one-shot requests (a bulk run counts its own). */
  private readonly circuit: OutageCircuit;
  /** The flat headers every request carries, with and without a body: built once. */
  private readonly baseHeaders: { body: string[]; none: string[] };
  /** A one-shot request: the retry piece over its answer pieces and their reading; composed once. */
  private readonly oneShot: (call: RetriedCall) => Promise<ApiResponse>;
  /** A bulk line: the retry piece over the answer pieces without skew, read lean; composed once, at the first line. */
  private lines: ((call: RetriedCall) => Promise<SendResponse>) | undefined;
  private closed = false;
  /** Service clock minus ours, in seconds, from the latest response's Date header. */
  lastSkewSeconds: number | undefined;

  constructor(options: ApiClientOptions) {
    const service = serviceOf(options.baseUrl);
    this.options = options;
    this.origin = service.origin;
    this.basePath = service.basePath;
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const scripted = options.sleep !== undefined || options.now !== undefined;
    this.gate = options.gate ?? (scripted ? new PoolGate({ now: this.now, sleep: this.sleep }) : sharedGate(this.origin));
    this.transport = new Transport({
      origin: this.origin,
      timeoutMs: options.timeoutMs,
      connections: options.connections ?? 16,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      now: this.now,
    });
    this.redaction = redaction(options.apiKey);
    this.circuit = new OutageCircuit(options.retries);
    const auth = { apiKey: options.apiKey, redact: false, userAgent: options.userAgent };
    const base = { method: 'GET', path: '/' } as const;
    this.baseHeaders = { body: Object.entries(requestHeaders(base, true, auth)).flat(), none: Object.entries(requestHeaders(base, false, auth)).flat() };
    const skew = skewPiece(this.now, (observation) => {
      this.lastSkewSeconds = observation.seconds;
      options.onSkew?.(observation);
    });
    const answers = compose(exchangeStep(this.transport), [pacePiece(this.gate), this.tracePiece(), skew, redactionPiece(this.redaction, false)]);
    this.oneShot = retryPiece<RetriedCall, Answer, ApiResponse>(answers, (call, answer) => this.interpret(call.req, answer, call.attempt));
  }

  private tracePiece(): ReturnType<typeof tracePiece> | undefined {
    if (this.options.trace === undefined) return undefined;
    const auth = { apiKey: this.options.apiKey, redact: true, userAgent: this.options.userAgent };
    return tracePiece({
      origin: this.origin,
      line: (text) => this.trace(text),
      shownHeaders: (req) => requestHeaders(req, req.body !== undefined, auth),
      shown: (text) => this.redaction.text(text),
    });
  }

  /** Loads undici and opens the connections now, while the caller does other start-up work (a bulk run reads its files). */
  warm(): void {
    this.transport.warm();
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

  /** `request` to a route by its name in the spec's table (or the sandbox's admin table): `client.route('parcels.get', { params: { id } })`. */
  route(name: RouteName | AdminRouteName, { params, ...call }: RouteCall = {}): Promise<ApiResponse> {
    return this.request({ ...call, method: anyRouteByName(name).method, path: routePath(name, params) });
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
    const bytes = bodyBytes(req.body);
    const signal = this.signalFor(req);
    const retries = req.retries ?? this.options.retries;
    const call: RetriedCall = {
      req,
      out: { method: req.method, target: requestTarget(this.basePath, req), headers: wireHeaders(this.baseHeaders, req, bytes !== undefined, { apiKey: this.options.apiKey, userAgent: this.options.userAgent }), body: bytes, signal, lean: false },
      attempt: 1,
      attempts: 1 + retries,
      // A one-shot command's pauses count toward its retries; a request that sets its own count (a
      // --watch poll) owns its pauses, outside the client's outage stop.
      counting: { retries, pausesCount: true, repeatable: isRepeatable(req.method, req.idempotencyKey), circuit: req.retries === undefined ? this.circuit : undefined },
      retry: { gate: this.gate, wait: signal, sleep: this.sleep, random: this.random, retrying: (failure, delay, next, attempts) => this.retrying(failure, delay, next, attempts) },
    };
    try {
      return await this.oneShot(call);
    } catch (error) {
      if (error instanceof GaveUp) throw this.finalError(req, error);
      throw error;
    }
  }

  /** Says a retry is coming: a trace line, and a notice for a person waiting. */
  private retrying(failure: ApiError | NetworkError, delay: number, attempt: number, attempts: number): void {
    const reason = failure instanceof ApiError ? String(failure.status) : failure.code;
    this.trace(`retrying in ${delay} ms after ${reason} (attempt ${attempt}/${attempts})`);
    this.options.waiting?.notice(`${retriedFailureText(failure)}; retrying in ${waitText(delay)} (${attempt - 1}/${attempts - 1})`);
  }

  /** The error a request ends with: the service's, or a network failure saying how many attempts it took. */
  private finalError(req: ApiRequest, gaveUp: GaveUp): Error {
    const failure = gaveUp.failure;
    if (!(failure instanceof NetworkError)) return failure;
    // Always a new error: after an outage stop the failure is another request's.
    let message = failure.message;
    if (gaveUp.attempts > 1) message = `${failure.message} (gave up after ${gaveUp.attempts} attempts)`;
    else if (gaveUp.notRepeatable) message = `${failure.message}; not retried: a ${req.method} without an Idempotency-Key might have been applied`;
    const final = new NetworkError(message, failure.code, failure.hint);
    final.request = { method: req.method, path: req.path, ...(req.idempotencyKey === undefined ? {} : { idempotencyKey: req.idempotencyKey }) };
    return final;
  }

  /** Turns an answer into a response (2xx); throws the ApiError of any other status. */
  private interpret(req: ApiRequest, answer: Answer, attempt: number): ApiResponse {
    const outcome = interpretAnswer(answer, this.now, this.redaction);
    if (outcome instanceof ApiError) {
      outcome.attempt = attempt;
      outcome.request = { method: req.method, path: req.path };
      throw outcome;
    }
    const response: ApiResponse = { status: answer.status, headers: answer.headers, body: outcome.body, data: outcome.data, attempts: attempt };
    if (answer.headers.etag !== undefined) response.etag = answer.headers.etag;
    return response;
  }

  /**
   * The bulk engine's Send: a line sent until it has an outcome, by the same retry piece as a
   * one-shot request, counted and admitted as the run says (`run`: pauses never count). Each attempt
   * carries the headers built once per client plus the line's Idempotency-Key, and reads a lean
   * answer (only `entry_id` kept from a success); no skew.
   */
  readonly send: Send = (request, run) => {
    if (CONTROL_CHARACTERS.test(request.idempotencyKey) || !request.path.startsWith('/') || request.path.startsWith('//')) {
      return Promise.reject(new Error(`refusing to send a malformed bulk request (${request.path})`));
    }
    this.lines ??= this.composeLines();
    const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
    const req: ApiRequest = { method: request.method, path: request.path, body, idempotencyKey: request.idempotencyKey };
    // A traced run shows every header; otherwise only those a line reads are kept.
    const out = { method: request.method, target: `${this.basePath}${request.path}`, headers: [...this.baseHeaders.body, 'Idempotency-Key', request.idempotencyKey], body, signal: run.abandon, lean: this.options.trace === undefined };
    return this.lines({ req, out, attempt: 1, attempts: run.counting.pausesCount ? 1 + run.counting.retries : Number.POSITIVE_INFINITY, counting: run.counting, retry: run.retry });
  };

  private composeLines(): (call: RetriedCall) => Promise<SendResponse> {
    const lean = this.options.trace === undefined;
    const answers = compose(exchangeStep(this.transport), [pacePiece(this.gate), this.tracePiece(), redactionPiece(this.redaction, lean)]);
    return retryPiece<RetriedCall, Answer, SendResponse>(answers, (call, answer) => {
      const outcome = interpretAnswer(answer, this.now, this.redaction, true);
      if (outcome instanceof ApiError) {
        outcome.request = { method: call.req.method, path: call.req.path };
        throw outcome;
      }
      return { status: answer.status, entryId: entryIdOf(outcome.data), replayed: isReplayed(answer.headers['idempotent-replayed']) };
    });
  }

  /** Closes the keep-alive connections. Further requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.transport.close();
  }
}
