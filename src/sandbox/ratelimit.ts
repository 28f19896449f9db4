import type { RateLimitSpec } from './seed.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (>= 1). */
  resetS: number;
  /** The window's length in seconds. */
  windowS: number;
}

/**
 * Fixed-window counter per organisation, on the clock's elapsed time plus what the test clock skipped
 * (`skippedMs`: its advance and set moves). Counters live in memory and restart with the sandbox.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly skippedMs: () => number) {}

  /** Every window starts afresh (a reset). */
  clear(): void {
    this.windows.clear();
  }

  take(orgId: string, spec: RateLimitSpec, arrivedElapsedMs: number): RateDecision {
    const elapsedMs = arrivedElapsedMs + this.skippedMs();
    const windowMs = spec.window_s * 1000;
    const start = Math.floor(elapsedMs / windowMs) * windowMs;
    let w = this.windows.get(orgId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(orgId, w);
    }
    const resetS = Math.max(1, Math.ceil((start + windowMs - elapsedMs) / 1000));
    if (w.count >= spec.requests) return { allowed: false, limit: spec.requests, remaining: 0, resetS, windowS: spec.window_s };
    w.count++;
    return { allowed: true, limit: spec.requests, remaining: spec.requests - w.count, resetS, windowS: spec.window_s };
  }
}
