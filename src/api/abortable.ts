import { CancelledError } from '../errors.js';

/** Stops a stream of items between items once `signal` fires, so a cancelled walk ends cleanly. */
export async function* untilAborted<T>(items: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  for await (const item of items) {
    if (signal.aborted) throw new CancelledError();
    yield item;
  }
}
