import type { Timing } from '../../src/api/core/sleep.js';
import { CancelledError } from '../../src/errors.js';

/**
 * A clock the test drives, for the request core's `Timing`: a sleep records its length and, after a
 * turn of the event loop, moves the clock to its end (sleepers at the same time share the time).
 * With `stop`, the `stop.after`-th sleep aborts `stop.controller` and rejects, as a Ctrl-C would.
 */
export function virtualTiming(stop?: { after: number; controller: AbortController }): Timing & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      const until = now + ms;
      await new Promise((resolve) => setImmediate(resolve));
      now = Math.max(now, until);
      if (stop !== undefined && sleeps.length >= stop.after) {
        stop.controller.abort(new CancelledError());
        throw new CancelledError();
      }
    },
  };
}
