import * as z from 'zod/mini';
import { typeError } from './text.js';
import { MAX_FUTURE_SKEW_S, MIN_OBSERVATION_TIME } from './observation-window.js';

export { MAX_FUTURE_SKEW_S, MIN_OBSERVATION_TIME };

/** Seconds since the Unix epoch, as the caller's clock sees it. */
export type Clock = () => number;

/** An int64 observation time in Unix seconds: >= 2000-01-01 and at most five minutes after `now()`. */
export function observationTime(now: Clock) {
  return z.int({ error: typeError('must be an integer number of Unix seconds') }).check(
    z.gte(MIN_OBSERVATION_TIME, { error: `must be at least ${MIN_OBSERVATION_TIME} (2000-01-01T00:00:00Z)` }),
    z.refine((t) => t <= now() + MAX_FUTURE_SKEW_S, { message: 'must not be more than five minutes in the future' }),
  );
}
