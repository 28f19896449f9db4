import type { Dispatcher, Pool } from 'undici';
import { NetworkError } from '../../errors.js';
import { redactKey } from '../redact.js';
import type { HttpMethod } from '../request.js';
import { cancellation } from './sleep.js';
import { headerText, loadUndici, openPool, responseTooLarge, timedOut, transportFailure } from './transport.js';

/** One attempt with its whole answer (ApiClient): timeout, cancellation, a bounded body, the key redacted from what comes back. */

export interface Answer {
  status: number;
  /** Lower-case names; repeated headers joined with ", "; the key redacted. */
  headers: Record<string, string>;
  /** The body as text, the key redacted. */
  text: string;
}

export interface ConnectionOptions {
  origin: string;
  apiKey: string | undefined;
  timeoutMs: number;
  connections: number;
  maxResponseBytes: number;
}

class TimeoutSignal extends Error {}

export class Connection {
  private pool: Promise<Pool> | undefined;
  private closed = false;

  constructor(private readonly options: ConnectionOptions) {}

  private redact(text: string): string {
    return redactKey(text, this.options.apiKey);
  }

  async send(method: HttpMethod, target: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal | undefined): Promise<Answer> {
    if (this.closed) throw new Error('ApiClient is closed');
    const pool = await (this.pool ??= openPool(this.options));
    const { request } = await loadUndici();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutSignal('timeout')), this.options.timeoutMs);
    const onAbort = (): void => controller.abort(cancellation(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await request.call(pool, { path: target, method, headers, body, signal: controller.signal });
      const text = await this.readBody(response);
      return { status: response.statusCode, headers: this.joinHeaders(response.headers), text };
    } catch (error) {
      if (signal?.aborted) throw cancellation(signal);
      if (error instanceof NetworkError) throw error;
      if (controller.signal.aborted || error instanceof TimeoutSignal) throw timedOut(this.options.timeoutMs);
      throw transportFailure(error, (text) => this.redact(text));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private joinHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined) out[this.redact(name.toLowerCase())] = this.redact(headerText(value));
    }
    return out;
  }

  /** The body as text, refusing one larger than maxResponseBytes (without reading the rest). */
  private async readBody(response: Dispatcher.ResponseData): Promise<string> {
    const limit = this.options.maxResponseBytes;
    const tooLarge = (): NetworkError => {
      response.body.destroy();
      return responseTooLarge(limit);
    };
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
    return this.redact(Buffer.concat(chunks, size).toString('utf8'));
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).close();
  }
}
