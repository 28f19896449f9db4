/**
 * Admission of requests for a whole pool: a pause that every worker honours (429, 503 with
 * Retry-After), a ramp back up after a pause, and an optional requests-per-second cap.
 */

export interface Timing {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realTiming: Timing = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

export class Gate {
  /** How many requests may be in flight now: `max`, or less while ramping up after a pause. */
  limit: number;
  private pausedUntil = 0;
  private nextSlot = 0;
  private successesAtLimit = 0;
  private readonly interval: number;

  constructor(
    readonly max: number,
    /** Requests per second, or undefined for no cap. */
    rate: number | undefined,
    private readonly timing: Timing,
  ) {
    this.limit = max;
    this.interval = rate === undefined ? 0 : 1000 / rate;
  }

  /**
   * Every request waits until the pause is over, then one interval after the previous one. Returns
   * a promise only when there is something to wait for (most requests need none).
   */
  admit(signal?: AbortSignal): Promise<void> | undefined {
    const now = this.timing.now();
    if (Math.max(this.pausedUntil, this.nextSlot) > now) return this.admitLater(signal);
    this.take(now);
    return undefined;
  }

  private async admitLater(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = this.timing.now();
      const at = Math.max(this.pausedUntil, this.nextSlot, now);
      if (at <= now) break;
      await this.timing.sleep(at - now, signal);
      if (signal?.aborted) return;
    }
    this.take(this.timing.now());
  }

  private take(now: number): void {
    if (this.interval > 0) this.nextSlot = Math.max(this.nextSlot, now) + this.interval;
  }

  /** Stops the whole pool for `ms` and restarts it at one request in flight. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.timing.now() + ms);
    this.limit = 1;
    this.successesAtLimit = 0;
  }

  /** Slow start: each full round of successes at the current limit doubles it, up to `max`. */
  succeeded(): void {
    if (this.limit >= this.max) return;
    if (++this.successesAtLimit >= this.limit) {
      this.limit = Math.min(this.max, this.limit * 2);
      this.successesAtLimit = 0;
    }
  }
}
