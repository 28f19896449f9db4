import { CancelledError } from '../errors.js';
import type { HttpMethod } from './request.js';

/** The retry policy: which failures are retried, how long to wait, and the process-wide Retry-After gate. */

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 5_000;
export const RETRY_AFTER_CAP_MS = 60_000;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Methods that are safe to send twice; POST only with an Idempotency-Key. */
const REPEATABLE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

export function isRepeatable(method: HttpMethod, idempotencyKey: string | undefined): boolean {
  return REPEATABLE_METHODS.has(method) || idempotencyKey !== undefined;
}

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

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout as a promise that ends early, as the signal's CancelledError, when the signal aborts. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancellation(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancellation(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The CancelledError an aborted signal stands for (its reason when it is one). */
export function cancellation(signal: AbortSignal | undefined): CancelledError {
  const reason: unknown = signal?.reason;
  return reason instanceof CancelledError ? reason : new CancelledError();
}

/**
 * A pause every request waits out before it is sent: a 429 (or a 503 with Retry-After) closes it
 * for the time the service asked, so a pool of concurrent requests backs off together instead of
 * each hitting the limit once more.
 */
export class RetryGate {
  private openAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps the gate closed for at least `ms` from now. */
  closeFor(ms: number): void {
    this.openAt = Math.max(this.openAt, this.now() + ms);
  }

  /** Waits until the gate is open; waits again only if another request extended it meanwhile. */
  async pass(sleep: Sleep, signal?: AbortSignal): Promise<void> {
    for (let target = this.openAt; ; target = this.openAt) {
      const wait = target - this.now();
      if (wait <= 0) return;
      await sleep(wait, signal);
      if (this.openAt === target) return;
    }
  }
}
