/** Fault injection for client tests, reproducible with a seed. */
export interface FaultOptions {
  /** Delay before every response is written, in milliseconds. */
  latencyMs?: number;
  /** Share (0..1) of routed requests answered 500 or 503 before anything is changed. */
  failRate?: number;
  /** Share (0..1) of routed requests that are carried out (and committed) but whose connection is destroyed unanswered. */
  dropRate?: number;
  /** PRNG seed; the same seed gives the same sequence of faults for the same sequence of requests. */
  seed?: number;
  /** The Retry-After (seconds, 0..3600) of an injected 503; default 1. 0 lets a test run its faults without pauses. */
  retryAfterS?: number;
}

export interface FaultDecision {
  /** Answer with this status (and an error envelope) instead of running the request. */
  fail: 500 | 503 | null;
  /** Run the request, then destroy the socket instead of answering. */
  drop: boolean;
}

/** mulberry32: a tiny, fast, seedable 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  readonly latencyMs: number;
  readonly retryAfterS: number;
  private readonly failRate: number;
  private readonly dropRate: number;
  private readonly random: () => number;
  readonly active: boolean;

  constructor(opts: FaultOptions = {}) {
    this.latencyMs = clamp(opts.latencyMs ?? 0, 0, 600_000, 'latencyMs');
    this.failRate = clamp(opts.failRate ?? 0, 0, 1, 'failRate');
    this.dropRate = clamp(opts.dropRate ?? 0, 0, 1, 'dropRate');
    this.retryAfterS = clamp(opts.retryAfterS ?? 1, 0, 3600, 'retryAfterS');
    if (!Number.isInteger(this.retryAfterS)) throw new RangeError(`faults.retryAfterS must be a whole number of seconds, got ${String(opts.retryAfterS)}`);
    this.random = mulberry32(opts.seed ?? (Math.random() * 2 ** 32) >>> 0);
    this.active = this.failRate > 0 || this.dropRate > 0;
  }

  /** Draws exactly two numbers per routed request, so a seed replays the same faults in the same order. */
  decide(): FaultDecision {
    if (!this.active) return { fail: null, drop: false };
    const f = this.random();
    const d = this.random();
    if (f < this.failRate) return { fail: f < this.failRate / 2 ? 500 : 503, drop: false };
    return { fail: null, drop: d < this.dropRate };
  }
}

function clamp(value: number, min: number, max: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw new RangeError(`faults.${name} must be a number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}
