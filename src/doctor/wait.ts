/**
 * `doctor --wait DURATION`: right after a deploy the service may refuse connections or answer 503
 * for a while. Before its checks, doctor asks again (the couriers probe) by the one retry policy
 * (src/api/core/retry.ts: back-off with jitter, a 429's or 503's Retry-After) until any answer the
 * policy does not retry comes back, or the time is up. Either way the checks then run once and
 * report what they find: a service still out of reach fails the host check (exit 8).
 */
import type { ApiClient } from '../api/http.js';
import { retriedFailureText } from '../api/failures.js';
import { GaveUp, withRetries } from '../api/core/retry.js';
import { sleep } from '../api/core/sleep.js';
import { waitText } from '../schemas/time-text.js';

/** The longest `--wait`: a CI step waits for a deploy, not for a day. */
export const MAX_DOCTOR_WAIT_MS = 3_600_000;

export async function waitForAnswer(input: {
  client: ApiClient;
  url: string;
  waitMs: number;
  /** The command's cancellation (Ctrl-C, SIGTERM): it ends the wait with its error. */
  signal: AbortSignal;
  /** Told before each new try: `https://… is not answering yet (connection refused); trying again in 0.4 s`. */
  notice(line: string): void;
}): Promise<void> {
  const deadline = AbortSignal.timeout(input.waitMs);
  const wait = AbortSignal.any([input.signal, deadline]);
  try {
    await withRetries(
      // Its own count (like a --watch poll), outside the client's outage stop, which would answer every try after the first refusal itself.
      () => input.client.route('couriers.list', { signal: wait, retries: 0 }),
      // Time, not a count, bounds the tries: the deadline ends the wait.
      { retries: Number.POSITIVE_INFINITY, pausesCount: false, repeatable: true },
      {
        gate: undefined,
        wait,
        sleep,
        random: Math.random,
        retrying: (failure, delayMs) => input.notice(`${input.url} is not answering yet (${retriedFailureText(failure)}); trying again in ${waitText(delayMs)}`),
      },
    );
  } catch (error) {
    if (input.signal.aborted) throw error;
    // An answer the policy does not retry (a 401 too) ends the wait, as does the deadline: the checks say what it means.
    if (error instanceof GaveUp || deadline.aborted) return;
    throw error;
  }
}
