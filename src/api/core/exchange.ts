import type { Dispatcher, Pool } from 'undici';
import { cancellation } from './sleep.js';
import { headerText, openPool, responseTooLarge, timedOut, transportFailure } from './transport.js';
import type { HttpMethod } from '../request.js';

/**
 * The bottom of the request chain (src/api/core/chain.ts): one request, one answer, over undici's
 * Pool with a dispatch handler. One timer sweeps the deadline of every request in flight, one
 * listener per abort signal cancels what is in flight under it, and a body larger than the cap is
 * refused without reading the rest. Nothing here is redacted: the redaction piece above does that.
 */

/** One request on the wire. */
export interface Outgoing {
  method: HttpMethod;
  /** Base path, route and query. */
  target: string;
  /** Name, value, name, value, … (undici takes them flat). */
  headers: string[];
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
  /** Keep only the headers a bulk line reads (LEAN_HEADERS), not all of them joined. */
  lean: boolean;
}

/** An answer as it came, before redaction. */
export interface Answer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as text. */
  text: string;
}

/** What a bulk line reads from an answer's headers: its error, its pause, its replay flag, the service's pace. */
const LEAN_HEADERS = ['date', 'retry-after', 'location', 'idempotent-replayed', 'ratelimit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'] as const;

export interface TransportOptions {
  origin: string;
  /** Per request: connect, headers and body together. */
  timeoutMs: number;
  connections: number;
  maxResponseBytes: number;
  /** The deadlines' clock (epoch or monotonic milliseconds). */
  now: () => number;
}

export class Transport {
  private readonly inFlight = new Set<Exchange>();
  private readonly watched = new WeakSet<AbortSignal>();
  /** One pool, however many requests wait for it to be created at once. */
  private pool: Promise<Pool> | undefined;
  /** The pool once it is open: a request then goes out without waiting a turn for it. */
  private ready: Pool | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(readonly options: TransportOptions) {}

  /** Loads undici and opens the pool now (a bulk run does it while its start-up reads its files). */
  warm(): void {
    this.opening().catch(() => undefined);
  }

  private opening(): Promise<Pool> {
    this.pool ??= openPool({ origin: this.options.origin, connections: this.options.connections, timeoutMs: this.options.timeoutMs }).then((pool) => {
      if (!this.closed) this.ready = pool;
      return pool;
    });
    return this.pool;
  }

  exchange(out: Outgoing): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('the client is closed'));
    if (out.signal?.aborted) return Promise.reject(cancellation(out.signal));
    const ready = this.ready;
    if (ready !== undefined) return this.dispatch(ready, out);
    return this.opening().then((pool) => {
      if (out.signal?.aborted) throw cancellation(out.signal);
      return this.dispatch(pool, out);
    });
  }

  private dispatch(pool: Pool, out: Outgoing): Promise<Answer> {
    const signal = out.signal;
    if (signal !== undefined && !this.watched.has(signal)) {
      this.watched.add(signal);
      signal.addEventListener('abort', () => this.abortAll(signal), { once: true });
    }
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(10, Math.min(1_000, this.options.timeoutMs / 4))).unref();
    return new Promise<Answer>((resolve, reject) => {
      const exchange = new Exchange(this, out, this.options.now() + this.options.timeoutMs, resolve, reject);
      this.inFlight.add(exchange);
      pool.dispatch({ path: out.target, method: out.method, headers: out.headers, body: out.body }, exchange);
    });
  }

  settled(exchange: Exchange): void {
    this.inFlight.delete(exchange);
  }

  private sweep(): void {
    const now = this.options.now();
    for (const exchange of this.inFlight) {
      if (exchange.deadline <= now) exchange.fail(timedOut(this.options.timeoutMs));
    }
  }

  private abortAll(signal: AbortSignal): void {
    for (const exchange of this.inFlight) if (exchange.out.signal === signal) exchange.fail(cancellation(signal));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const pool = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    if (pool !== undefined) await (await pool).close().catch(() => undefined);
  }
}

/** One request and its answer, as undici's dispatch handler. */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private size = 0;
  private done = false;

  constructor(
    private readonly transport: Transport,
    readonly out: Outgoing,
    readonly deadline: number,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Timed out or cancelled while it waited for a connection: it never goes out.
    if (this.done) controller.abort(new Error('cancelled before it was sent'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    if (this.out.lean) {
      // undici names headers in lower case: a bulk line looks up the few it reads.
      for (const name of LEAN_HEADERS) {
        const value = headers[name];
        if (value !== undefined) this.headers[name] = headerText(value);
      }
    } else {
      for (const name of Object.keys(headers)) {
        const value = headers[name];
        if (value !== undefined) this.headers[name.toLowerCase()] = headerText(value);
      }
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.transport.options.maxResponseBytes) this.fail(this.tooLarge());
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.transport.options.maxResponseBytes) return this.fail(this.tooLarge());
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.done) return;
    const text = Buffer.concat(this.chunks, this.size).toString('utf8');
    this.finish();
    this.resolve({ status: this.status, headers: this.headers, text });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.done) return;
    // The redaction piece masks the detail (it may quote what the server sent).
    const failure = transportFailure(error, (detail) => detail);
    // undici's own header/body timers run alongside the sweeper's deadline: either way it is one timeout, said one way.
    this.fail(failure.code === 'timeout' ? timedOut(this.transport.options.timeoutMs) : failure);
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
    this.transport.settled(this);
  }

  private tooLarge(): Error {
    return responseTooLarge(this.transport.options.maxResponseBytes);
  }
}
