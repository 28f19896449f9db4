import type { FaultRates } from '../../schemas/sandbox-admin.js';
import { FAULT_LIMITS } from '../../schemas/sandbox-admin.js';

/** Fault injection for client tests, reproducible with a seed (the rates at start; changeable at run time). */
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

/** The dice every routed request meets: fail and drop rates, a latency, the Retry-After of an injected 503. */
export class RateFaults {
  private current: FaultRates;
  private readonly random: () => number;

  constructor(opts: FaultOptions = {}) {
    const retryAfterS = clamp(opts.retryAfterS ?? 1, 0, FAULT_LIMITS.retryAfterS, 'retryAfterS');
    if (!Number.isInteger(retryAfterS)) throw new RangeError(`faults.retryAfterS must be a whole number of seconds, got ${String(opts.retryAfterS)}`);
    this.current = {
      fail_rate: clamp(opts.failRate ?? 0, 0, 1, 'failRate'),
      drop_rate: clamp(opts.dropRate ?? 0, 0, 1, 'dropRate'),
      latency_ms: clamp(opts.latencyMs ?? 0, 0, FAULT_LIMITS.latencyMs, 'latencyMs'),
      retry_after_s: retryAfterS,
    };
    this.random = mulberry32(opts.seed ?? (Math.random() * 2 ** 32) >>> 0);
  }

  get latencyMs(): number {
    return this.current.latency_ms;
  }

  get retryAfterS(): number {
    return this.current.retry_after_s;
  }

  /** Whether a fail or drop rate is set (the dice are thrown only then). */
  get rolling(): boolean {
    return this.current.fail_rate > 0 || this.current.drop_rate > 0;
  }

  rates(): FaultRates {
    return { ...this.current };
  }

  /** Changes the rates (checked by checkFaultRates); the dice go on with the same sequence. */
  set(change: Partial<FaultRates>): FaultRates {
    this.current = { ...this.current, ...change };
    return this.rates();
  }

  /** Draws exactly two numbers per routed request while a rate is set, so a seed replays the same faults in the same order. */
  decide(): FaultDecision {
    const { fail_rate: failRate, drop_rate: dropRate } = this.current;
    if (!this.rolling) return { fail: null, drop: false };
    const f = this.random();
    const d = this.random();
    if (f < failRate) return { fail: f < failRate / 2 ? 500 : 503, drop: false };
    return { fail: null, drop: d < dropRate };
  }
}

function clamp(value: number, min: number, max: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw new RangeError(`faults.${name} must be a number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}
