import { CancelledError } from '../../errors.js';

/** The one abortable sleep, and the clock every wait of the request core reads. */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Milliseconds and a sleep: real in the CLI, scripted in tests. */
export interface Timing {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  sleep: Sleep;
}

/** The CancelledError an aborted signal stands for (its reason when it is one). */
export function cancellation(signal: AbortSignal | undefined): CancelledError {
  const reason: unknown = signal?.reason;
  return reason instanceof CancelledError ? reason : new CancelledError();
}

/** setTimeout as a promise that rejects early, with the signal's CancelledError, when the signal aborts. */
export const sleep: Sleep = (ms, signal) =>
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

export const realTiming: Timing = { now: () => performance.now(), sleep };
