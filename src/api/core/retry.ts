import { ApiError, CancelledError, NetworkError } from '../../errors.js';
import type { PoolGate } from './gate.js';
import type { OutageCircuit } from './policy.js';
import { backoffDelay, isNoAnswer, isRetryableStatus, pauseFor } from './policy.js';
import { cancellation } from './sleep.js';

/**
 * The retry piece of the request chain, and the one retry loop of the CLI: one-shot commands and
 * pagination (src/api/http.ts), every line of a bulk run or an outbox flush (src/bulk/line-worker.ts),
 * and the delays of `track --watch` (`retryDelay`). The caller says how to count:
 * - a one-shot command's 429s count toward its retries (exit 7 once they are spent);
 * - a bulk line's pauses never count (a run at the rate limit fails no line);
 * - a pause (429, 503 with Retry-After) holds every request to the service at the gate; a
 *   back-off holds this request only;
 * - an OutageCircuit, when given, stops every request sharing it once one of them has failed
 *   without an answer more than `retries` times in a row since the last answer anywhere.
 * Each attempt is admitted through the gate (admission) when the caller gives one.
 */

export interface Counting {
  /** Extra attempts after the first for a 5xx or a failure without an answer. */
  retries: number;
  /** Whether a pause (429, 503 with Retry-After) spends one of them. */
  pausesCount: boolean;
  /** False for a request that must not be sent twice (a POST without an Idempotency-Key). */
  repeatable: boolean;
  circuit?: OutageCircuit | undefined;
}

export interface RetryContext {
  /** Admission of each attempt (pauses, pace, the rate cap, the in-flight limit); undefined for none. */
  gate: PoolGate | undefined;
  /** Ends every wait (admission, back-off) with its CancelledError. */
  wait: AbortSignal | undefined;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the back-off jitter. */
  random(): number;
  /** Told before each retry: the failure, the wait, and the attempt about to be made (2 = first retry) of at most `attempts`. */
  retrying?(failure: ApiError | NetworkError, delayMs: number, attempt: number, attempts: number): void;
}

/** The failure that ended a request, with how many attempts it took. */
export class GaveUp extends Error {
  constructor(
    readonly failure: ApiError | NetworkError | Error,
    readonly attempts: number,
    /** The failure was one the policy retries, but the request may not be sent twice. */
    readonly notRepeatable: boolean,
  ) {
    super(failure.message);
  }
}

/** A failure the policy retries: a 429/5xx the policy names, or no usable answer (an oversized or too-deep one is final). */
export function isTransient(error: unknown): error is ApiError | NetworkError {
  if (error instanceof ApiError) return isRetryableStatus(error.status) || pauseFor(error) !== undefined;
  return error instanceof NetworkError && error.code !== 'response_too_large' && error.code !== 'response_too_deep';
}

/** The wait before trying again after `failure`, the `failures`-th in a row: the pause it asks for (bounded), else the back-off. */
export function retryDelay(failure: unknown, failures: number, random: () => number, backoff?: Parameters<typeof backoffDelay>[2]): number {
  return pauseFor(failure) ?? backoffDelay(failures, random, backoff);
}

/**
 * Runs `attempt` until it succeeds or the policy gives up. Throws GaveUp with the last failure;
 * CancelledError when a wait is cut short (or an attempt is cancelled). With a circuit, check
 * `circuit.open` to tell an outage stop from a request's own failure.
 */
export function withRetries<T>(attempt: (n: number) => Promise<T>, counting: Counting, ctx: RetryContext): Promise<T> {
  return retried({ attempt: 1, counting, retry: ctx }, (call) => attempt(call.attempt), passThrough);
}

function passThrough<T>(_call: Retried, value: T): T {
  return value;
}

/** A call as the retry piece takes it: how to count and how to wait, said by the caller. */
export interface Retried {
  /** 1 for the first attempt; set by the retry piece before each. */
  attempt: number;
  counting: Counting;
  retry: RetryContext;
}

/**
 * The retry piece of the request chain: `next` (one attempt's answer) read by `read` (which throws
 * the failure of a status it does not accept), tried as the policy decides, each attempt admitted at
 * the call's gate. Composed once per client, over a one-shot request's answer pieces and over a bulk
 * line's alike. The answer is read inside the loop, not by a piece of its own: a bulk line pays
 * for one promise less (BENCHMARKS.md, "The request chain": what a bulk line paid for it).
 */
export function retryPiece<C extends Retried, A, T>(next: (call: C) => Promise<A>, read: (call: C, answer: A) => T): (call: C) => Promise<T> {
  return (call) => retried(call, next, read);
}

/** The one retry loop (see the top of this file): `call.attempt` counts the attempts made. */
async function retried<C extends Retried, A, T>(call: C, next: (call: C) => Promise<A>, read: (call: C, answer: A) => T): Promise<T> {
  const { counting, retry: ctx } = call;
  const circuit = counting.circuit;
  const gate = ctx.gate;
  // Made at the first failure without an answer: it counts from the last answer anywhere, so it reads the same as one made at the start.
  let streak: ReturnType<OutageCircuit['streak']> | undefined;
  let counted = 0;
  for (let n = 1; ; n++) {
    if (circuit?.open) throw new GaveUp(circuit.cause ?? new NetworkError('the service cannot be reached', 'network_error'), n - 1, false);
    let failure: unknown;
    // Admission: each attempt waits its turn at the gate and counts in flight until it ends.
    const admission = gate?.admit(ctx.wait);
    if (admission !== undefined) await admission;
    try {
      if (ctx.wait?.aborted) throw cancellation(ctx.wait);
      call.attempt = n;
      const result = read(call, await next(call));
      gate?.succeeded();
      circuit?.answered();
      return result;
    } catch (error) {
      failure = error;
    } finally {
      gate?.settle();
    }
    if (failure instanceof CancelledError) throw failure;
    if (failure instanceof ApiError) circuit?.answered();
    if (!isTransient(failure)) throw new GaveUp(failure as Error, n, false);
    const pause = pauseFor(failure);
    const counts = pause === undefined || counting.pausesCount;
    if (counts) counted++;
    const outage = circuit !== undefined && isNoAnswer(failure) && (streak ??= circuit.streak()).failed(failure as NetworkError);
    if (outage || (counts && counted > counting.retries)) throw new GaveUp(failure, n, false);
    if (!counting.repeatable) throw new GaveUp(failure, n, counting.retries > 0);
    const delay = pause ?? backoffDelay(counted, ctx.random);
    ctx.retrying?.(failure, delay, n + 1, counting.pausesCount ? 1 + counting.retries : Number.POSITIVE_INFINITY);
    // The service asked for a pause: every request to it waits it out at the gate. A back-off is this request's own.
    if (pause !== undefined && gate !== undefined) gate.pause(pause);
    else await ctx.sleep(delay, ctx.wait);
    if (ctx.wait?.aborted) throw cancellation(ctx.wait);
  }
}
