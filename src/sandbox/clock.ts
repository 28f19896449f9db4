import type { Clock } from '../schemas/time.js';

/** The sandbox's own clock: real time shifted by `offsetS` seconds. */
export interface SandboxClock {
  /** Milliseconds since the epoch, shifted. */
  nowMs(): number;
  /** Whole Unix seconds, shifted; what created_at, recorded_at and the five-minute rule use. */
  now: Clock;
  /** The HTTP Date header value (cached per second). */
  dateHeader(): string;
  /** The same for a time already read from this clock (`nowMs()`). */
  dateHeaderAt(ms: number): string;
}

export function createClock(offsetS = 0): SandboxClock {
  const offsetMs = Math.round(offsetS * 1000);
  let cachedSecond = -1;
  let cachedHeader = '';
  const nowMs = () => Date.now() + offsetMs;
  return {
    nowMs,
    now: () => Math.floor(nowMs() / 1000),
    dateHeader() {
      return this.dateHeaderAt(nowMs());
    },
    dateHeaderAt(ms) {
      const second = Math.floor(ms / 1000);
      if (second !== cachedSecond) {
        cachedSecond = second;
        cachedHeader = new Date(second * 1000).toUTCString();
      }
      return cachedHeader;
    },
  };
}
