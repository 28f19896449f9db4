import { performance } from 'node:perf_hooks';
import type { Clock } from '../schemas/time.js';

/**
 * The sandbox's time, asked by every time-based rule. Two faces:
 * - data time (`nowMs`, `now`, `dateHeaderAt`): the wall time the data lives in — the five-minute
 *   rule, the Date header, assigned timestamps, usage days, key expiry, idempotency retention and
 *   scenario steps. It follows the test clock stored in the database (see TestClockState);
 * - elapsed time (`elapsedMs`): a monotonic count for rate-limit windows and timeouts, which keeps
 *   running whatever the data time does (a frozen or jumped data clock never stalls a window).
 */
export interface SandboxClock {
  /** Data time: milliseconds since the epoch. */
  nowMs(): number;
  /** Data time: whole Unix seconds. */
  now: Clock;
  /** The HTTP Date header value for a data time read from this clock. */
  dateHeaderAt(ms: number): string;
  /** Elapsed time: monotonic milliseconds from an arbitrary origin. */
  elapsedMs(): number;
}

/** Where a clock reads its two times; tests pass their own to drive both without sleeping. */
export interface TimeSources {
  /** Data wall time in epoch milliseconds (before the offset). */
  wallMs(): number;
  elapsedMs(): number;
}

/**
 * The test clock as stored in the database: at wall time `anchorWallMs` the data time (before this
 * process's offset) was `anchorDataMs`, and since then it runs `speed` times real time (0 when frozen).
 * No stored state: data time is wall time.
 */
export interface TestClockState {
  anchorDataMs: number;
  anchorWallMs: number;
  /** How many times real time the clock runs while not frozen (1 = real time). */
  speed: number;
  frozen: boolean;
}

/** Where the stored state is read: `current()` answers the latest committed state (any process's). */
export interface ClockStateSource {
  current(): TestClockState | undefined;
}

const SYSTEM_TIME: TimeSources = { wallMs: () => Date.now(), elapsedMs: () => performance.now() };

/** Data time (before the offset) of a stored state at wall time `wallMs`. */
export function dataTimeAt(state: TestClockState | undefined, wallMs: number): number {
  if (state === undefined) return wallMs;
  if (state.frozen) return state.anchorDataMs;
  return state.anchorDataMs + Math.round((wallMs - state.anchorWallMs) * state.speed);
}

/**
 * A clock on `sources` (default: the system's), following the stored test clock of `stored` when
 * given, its data time shifted by this process's `offsetS` seconds.
 */
export function createClock(offsetS = 0, sources: TimeSources = SYSTEM_TIME, stored?: ClockStateSource): SandboxClock {
  const offsetMs = Math.round(offsetS * 1000);
  let cachedSecond = Number.NaN;
  let cachedHeader = '';
  const nowMs = stored === undefined ? () => sources.wallMs() + offsetMs : () => dataTimeAt(stored.current(), sources.wallMs()) + offsetMs;
  return {
    nowMs,
    now: () => Math.floor(nowMs() / 1000),
    dateHeaderAt(ms) {
      const second = Math.floor(ms / 1000);
      if (second !== cachedSecond) {
        cachedSecond = second;
        cachedHeader = new Date(second * 1000).toUTCString();
      }
      return cachedHeader;
    },
    elapsedMs: () => sources.elapsedMs(),
  };
}

/** Time sources a test moves by hand: `wall` and `elapsed` in milliseconds. */
export function manualTime(wallMs: number): TimeSources & { advance(ms: number): void; advanceElapsed(ms: number): void } {
  let wall = wallMs;
  let elapsed = 0;
  return {
    wallMs: () => wall,
    elapsedMs: () => elapsed,
    advance(ms) {
      wall += ms;
      elapsed += ms;
    },
    advanceElapsed(ms) {
      elapsed += ms;
    },
  };
}
