import type { Dispatcher, Pool } from 'undici';
import { ApiError } from '../../errors.js';
import { entryIdOf, interpretAnswer } from './answer.js';
import { redactKey } from '../redact.js';
import { requestHeaders } from '../request.js';
import type { PoolGate } from './gate.js';
import type { Send, SendRequest, SendResponse } from './send.js';
import { isReplayed } from '../../schemas/headers.js';
import { cancellation } from './sleep.js';
import type { Service } from './transport.js';
import { DEFAULT_MAX_RESPONSE_BYTES, headerText, openPool, responseTooLarge, serviceOf, timedOut, transportFailure } from './transport.js';

/**
 * The bulk engine's sender: one attempt per call (the engine retries) straight over undici's Pool
 * with a dispatch handler, because a bulk run's client CPU per line decides its throughput. What
 * ApiClient does per request is done here once per run instead: the headers are built once (each
 * request adds its Idempotency-Key), one timer sweeps every request's deadline, one listener per
 * abort signal cancels what is in flight. The key is redacted from every text kept from the answer.
 * No trace: `--verbose` runs go through ApiClient (src/bulk/client-send.ts). Admission (the pool
 * gate) is the engine's; the sender tells the gate the pace each answer states.
 */

export interface BulkSenderOptions {
  /** http(s) URL without credentials, as ApiClient takes it. */
  baseUrl: string;
  apiKey: string | undefined;
  userAgent: string;
  /** Per attempt: connect, headers and body together. */
  timeoutMs: number;
  connections: number;
  maxResponseBytes?: number;
  now?: () => number;
  /** Told the rate-limit fields of every answer. */
  gate?: PoolGate;
}

// Idempotency keys come from our own derivation or the journal; still never a control character in a header.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export class BulkSender {
  private readonly service: Service;
  private readonly baseHeaders: string[];
  private readonly inFlight = new Set<Exchange>();
  private readonly watched = new WeakSet<AbortSignal>();
  private readonly now: () => number;
  /** One pool, however many sends wait for it to be created at once. */
  private pool: Promise<Pool> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;
  readonly maxResponseBytes: number;

  constructor(private readonly options: BulkSenderOptions) {
    this.service = serviceOf(options.baseUrl);
    this.baseHeaders = Object.entries(requestHeaders({ method: 'POST', path: '/' }, true, { apiKey: options.apiKey, redact: false, userAgent: options.userAgent })).flat();
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** The engine's Send. */
  readonly send: Send = async (request, signal) => {
    if (this.closed) throw new Error('BulkSender is closed');
    if (signal?.aborted) throw cancellation(signal);
    if (CONTROL_CHARACTERS.test(request.idempotencyKey) || !request.path.startsWith('/') || request.path.startsWith('//')) {
      throw new Error(`refusing to send a malformed bulk request (${request.path})`);
    }
    const pool = await (this.pool ??= openPool({ origin: this.service.origin, connections: this.options.connections, timeoutMs: this.options.timeoutMs }));
    if (signal !== undefined && !this.watched.has(signal)) {
      this.watched.add(signal);
      signal.addEventListener('abort', () => this.abortAll(signal, cancellation(signal)), { once: true });
    }
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(10, Math.min(1_000, this.options.timeoutMs / 4))).unref();
    return new Promise<SendResponse>((resolve, reject) => {
      const exchange = new Exchange(this, request, signal, this.now() + this.options.timeoutMs, resolve, reject);
      this.inFlight.add(exchange);
      pool.dispatch(
        { path: `${this.service.basePath}${request.path}`, method: request.method, headers: [...this.baseHeaders, 'Idempotency-Key', request.idempotencyKey], body: Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) },
        exchange,
      );
    });
  };

  /** Ends an exchange: it is no longer in flight. */
  settled(exchange: Exchange): void {
    this.inFlight.delete(exchange);
  }

  redact(text: string): string {
    return redactKey(text, this.options.apiKey);
  }

  /**
   * A success keeps only its entry id, redacted on its own: the rest of a 2xx body is never shown,
   * so it is not worth redacting. Everything else is redacted first.
   */
  interpret(status: number, headers: Record<string, string>, body: Buffer, replayed: boolean): SendResponse | ApiError {
    const success = status >= 200 && status < 300;
    const text = body.toString('utf8');
    const outcome = interpretAnswer({ status, headers, text: success ? text : this.redact(text) }, this.now);
    if (outcome instanceof ApiError) return outcome;
    const entryId = entryIdOf(outcome.data);
    return { status, entryId: entryId === undefined ? undefined : this.redact(entryId), replayed };
  }

  observe(headers: Record<string, string | string[] | undefined>): void {
    this.options.gate?.observe(headers);
  }

  private sweep(): void {
    const now = this.now();
    for (const exchange of this.inFlight) {
      if (exchange.deadline <= now) exchange.fail(timedOut(this.options.timeoutMs));
    }
  }

  private abortAll(signal: AbortSignal, error: Error): void {
    for (const exchange of this.inFlight) if (exchange.signal === signal) exchange.fail(error);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const pool = this.pool;
    this.pool = undefined;
    if (pool !== undefined) await (await pool).close();
  }
}

/** One request and its answer, as undici's dispatch handler. */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: Record<string, string> = {};
  private replayed = false;
  private chunks: Buffer[] = [];
  private size = 0;
  private done = false;

  constructor(
    private readonly sender: BulkSender,
    private readonly request: SendRequest,
    readonly signal: AbortSignal | undefined,
    readonly deadline: number,
    private readonly resolve: (response: SendResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Timed out or cancelled while it waited for a connection: it never goes out.
    if (this.done) controller.abort(new Error('cancelled before it was sent'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.sender.observe(headers);
    // Only what interpreting a failure reads, redacted like every text from the service.
    if (statusCode >= 200 && statusCode < 300) this.replayed = isReplayed(headers['idempotent-replayed']);
    else {
      for (const name of ['date', 'retry-after', 'location']) {
        const value = headers[name];
        if (value !== undefined) this.headers[name] = this.sender.redact(headerText(value));
      }
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.sender.maxResponseBytes) this.fail(this.tooLarge());
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.sender.maxResponseBytes) return this.fail(this.tooLarge());
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.done) return;
    let outcome: SendResponse | ApiError;
    try {
      outcome = this.sender.interpret(this.status, this.headers, Buffer.concat(this.chunks, this.size), this.replayed);
    } catch (error) {
      return this.fail(error as Error);
    }
    if (outcome instanceof ApiError) {
      outcome.request = { method: this.request.method, path: this.request.path };
      return this.fail(outcome);
    }
    this.finish();
    this.resolve(outcome);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.done) return;
    this.fail(transportFailure(error, (text) => this.sender.redact(text)));
  }

  /** Ends the exchange with `error` (and stops the request when it is still going). */
  fail(error: Error): void {
    if (this.done) return;
    this.finish();
    if (this.controller !== undefined && !this.controller.aborted) this.controller.abort(error);
    this.reject(error);
  }

  private finish(): void {
    this.done = true;
    this.chunks = [];
    this.sender.settled(this);
  }

  private tooLarge(): Error {
    return responseTooLarge(this.sender.maxResponseBytes);
  }
}
