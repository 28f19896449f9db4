import { ApiError, NetworkError } from '../../errors.js';
import type { HttpMethod } from '../request.js';

/**
 * The retry policy of every sender: which failures are retried, the backoff between attempts, and
 * the one cap on every wait a server asks for (Retry-After, rate-limit resets).
 */

/**
 * The longest a server can make a sender wait in one go. A longer Retry-After or rate-limit reset
 * waits this long: a hostile or broken value never stalls a command, and never overflows Node's
 * timer (which fires after 1 ms past 2^31-1 ms, a hot loop).
 */
export const MAX_WAIT_MS = 60_000;
/** How long a 429 without Retry-After pauses the pool. */
export const DEFAULT_PAUSE_MS = 1_000;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Methods that are safe to send twice; POST only with an Idempotency-Key (same key, same bytes). */
const REPEATABLE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

export function isRepeatable(method: HttpMethod, idempotencyKey: string | undefined): boolean {
  return REPEATABLE_METHODS.has(method) || idempotencyKey !== undefined;
}

/** A wait a server asked for, in ms, bounded to [0, MAX_WAIT_MS]; anything unreadable waits the cap. */
export function boundedWait(ms: number): number {
  if (Number.isNaN(ms)) return MAX_WAIT_MS;
  return Math.min(MAX_WAIT_MS, Math.max(0, Math.ceil(ms)));
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

/**
 * How long the whole pool pauses for this failure, or undefined when it is not a pause: a 429
 * (its Retry-After, else DEFAULT_PAUSE_MS) or a 503 with Retry-After. Always bounded.
 */
export function pauseFor(error: unknown): number | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.retryAfter !== undefined && (error.status === 429 || error.status === 503)) return boundedWait(error.retryAfter * 1000);
  return error.status === 429 ? DEFAULT_PAUSE_MS : undefined;
}

export interface Backoff {
  /** The ceiling of the first retry's delay; it doubles with each retry. */
  baseMs: number;
  capMs: number;
}

/** Between the attempts of one request (client and bulk lines alike). */
export const RETRY_BACKOFF: Backoff = { baseMs: 200, capMs: 5_000 };

/**
 * The delay before retry number `retry` (1 = first): equal jitter, so a delay is at least half its
 * doubling ceiling (never a burst of immediate retries) and requests that failed together spread out.
 */
export function backoffDelay(retry: number, random: () => number, backoff: Backoff = RETRY_BACKOFF): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** (retry - 1));
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Failures with no answer at all from the service: it refused or dropped the connection, or
 * nothing complete came back within the timeout. A malformed or oversized answer is an answer.
 */
const NO_ANSWER_CODES = new Set(['connection_refused', 'connection_reset', 'dns_failure', 'timeout', 'host_unreachable', 'tls_error', 'network_error']);

export function isNoAnswer(error: unknown): boolean {
  return error instanceof NetworkError && NO_ANSWER_CODES.has(error.code);
}

/**
 * The service could not be reached or could not take a write (any network failure, or a 5xx after
 * the retries): the write is worth keeping in the outbox, or sending again as it was. A 4xx is the
 * request's fault and is neither.
 */
export function couldNotTake(error: unknown): error is NetworkError | ApiError {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}

/**
 * The outage stop of every sender: when requests keep failing without an answer and none has been
 * answered since, the service is out of reach, not the request at fault. One request's retry
 * budget is spent for all of them: the first request whose failures in a row since the last answer
 * anywhere exceed `retries` opens the circuit, and every sender sharing it stops (its `signal`
 * aborts; nothing more is sent). Any answer, whatever its status, resets every streak.
 */
export class OutageCircuit {
  private answers = 0;
  private readonly opened = new AbortController();
  /** The failure that opened the circuit. */
  cause: NetworkError | undefined;

  constructor(readonly retries: number) {}

  /** Aborts when the circuit opens. */
  get signal(): AbortSignal {
    return this.opened.signal;
  }

  get open(): boolean {
    return this.opened.signal.aborted;
  }

  /** The service answered (any status): it is reachable. */
  answered(): void {
    this.answers++;
  }

  /** One request's failures without an answer, counted since the last answer anywhere. */
  streak(): { failed(error: NetworkError): boolean } {
    let seen = this.answers;
    let failures = 0;
    return {
      /** True when this failure opened the circuit (or it was open already): stop, do not retry. */
      failed: (error) => {
        if (seen !== this.answers) {
          seen = this.answers;
          failures = 0;
        }
        if (++failures > this.retries && !this.open) {
          this.cause = error;
          this.opened.abort();
        }
        return this.open;
      },
    };
  }
}
