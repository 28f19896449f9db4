import type { Pace } from './pacing.js';
import { readPace } from './pacing.js';
import { boundedWait, MAX_WAIT_MS } from './policy.js';
import type { Timing } from './sleep.js';
import { cancellation, realTiming } from './sleep.js';

/**
 * Admission of requests to one service, shared by every sender of the process (one-shot commands,
 * pagination, `track --watch`, bulk runs, the outbox flush): a pause every request honours (429,
 * 503 with Retry-After), a ramp back up after it, an optional requests-per-second cap, and the
 * service's own pace from its rate-limit fields, so a run spends its window without drawing a 429.
 * Every sleep is bounded by MAX_WAIT_MS. A spent window is waited out to its stated end, believed
 * for at most MAX_WAIT_MS per request of ours the window answered (`believedEnd`): a window longer
 * than the cap (90 s, an hour) draws no 429 when it turns, and no server stalls a run longer than
 * a minute per request it let through (a window stated spent at its first answer: one cap, as a
 * Retry-After).
 */
export class PoolGate {
  /** Most requests in flight (bulk runs; unlimited for other senders). */
  max = Number.POSITIVE_INFINITY;
  /** How many may be in flight now: `max`, or less while ramping up after a pause. */
  limit = Number.POSITIVE_INFINITY;
  /** Admitted and not yet settled. */
  inFlight = 0;
  /** Of those, the ones whose answer was observed: in the service's count already. */
  private answeredInFlight = 0;
  private pausedUntil = 0;
  private nextSlot = 0;
  private interval = 0;
  private successesAtLimit = 0;
  /** Requests this process may still send before `windowEnd`; undefined while the service states no pace. */
  private budget: number | undefined;
  /** When this window ends by our reckoning (`believedEnd`). */
  private windowEnd = 0;
  /** The earliest end the window's answers state (`Reset` is whole seconds rounded up: each is an upper bound). */
  private statedEnd = 0;
  /**
   * The window lasts at least until here: each answer was counted after its request left, with more
   * than `Reset` less a second to go. Before it, a higher count than the freshest is an older count
   * of this window (answers to requests in flight together come in any order), not the next window's.
   */
  private earliestEnd = 0;
  /** When the window's first answer came, and how many of ours it has answered. */
  private windowStart = 0;
  private answered = 0;
  /** The fewest remaining requests stated in this window: the service's freshest count. */
  private freshest = Number.POSITIVE_INFINITY;
  private windowLimit: number | undefined;
  /**
   * Counts higher than the freshest, stated before this window ended by our reckoning: the next
   * window has begun at the service (our end is an upper bound) and these are its freshest count.
   */
  private next: { remaining: number; statedEnd: number; earliestEnd: number; start: number; answered: number } | undefined;

  constructor(readonly timing: Timing = realTiming) {}

  /** A bulk run's `--concurrency` and `--rate` (requests per second, undefined for no cap). */
  configure(max: number, rate: number | undefined): void {
    this.max = max;
    this.limit = max;
    this.interval = rate === undefined ? 0 : 1000 / rate;
  }

  /**
   * Waits until a request may go, and counts it in flight (`settle` ends it). Returns a promise only
   * when there is something to wait for (most requests need none). Rejects when `signal` aborts.
   */
  admit(signal?: AbortSignal): Promise<void> | undefined {
    if (this.readyAt(this.timing.now()) > this.timing.now()) return this.admitLater(signal);
    this.take(this.timing.now());
    return undefined;
  }

  private async admitLater(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = this.timing.now();
      const at = this.readyAt(now);
      if (at <= now) break;
      await this.timing.sleep(Math.min(at - now, MAX_WAIT_MS), signal);
      if (signal?.aborted) throw cancellation(signal);
    }
    this.take(this.timing.now());
  }

  /** When the next request may go; a rate-limit window that has ended refills the budget. */
  private readyAt(now: number): number {
    let at = Math.max(this.pausedUntil, this.nextSlot);
    if (this.budget !== undefined && this.budget <= 0) {
      if (now < this.windowEnd) {
        at = Math.max(at, this.windowEnd);
      } else if (this.next !== undefined) {
        // The next window, as its answers counted it, less what is in flight (it may count there too).
        this.budget = this.next.remaining - this.inFlight;
        this.freshest = this.next.remaining;
        this.statedEnd = this.next.statedEnd;
        this.earliestEnd = this.next.earliestEnd;
        this.windowStart = this.next.start;
        this.answered = this.next.answered;
        this.windowEnd = this.believedEnd();
        this.next = undefined;
      } else {
        // A new window: its full limit when the service said it, else go and learn the pace again.
        this.budget = this.windowLimit === undefined ? undefined : this.windowLimit - this.inFlight;
        this.freshest = Number.POSITIVE_INFINITY;
      }
    }
    return at;
  }

  private take(now: number): void {
    this.inFlight++;
    if (this.budget !== undefined) this.budget--;
    if (this.interval > 0) this.nextSlot = Math.max(this.nextSlot, now) + this.interval;
  }

  /** An admitted request is over (answered or not). */
  settle(): void {
    this.inFlight--;
    // Taken for an answered one's, a request settled without an answer only makes the budget
    // smaller, until the next count.
    if (this.answeredInFlight > 0) this.answeredInFlight--;
  }

  /**
   * The headers of an answer to an admitted request (still in flight) that left at `sentAt` (this
   * gate's clock, or earlier). The freshest count of the window sets the budget, less the requests
   * in flight whose answer is not read yet, which the service may not have counted. The window's
   * end is the earliest the answers put it at: `Reset` is whole seconds rounded up, so each answer
   * bounds the true end from above. A higher count before the window may have ended
   * (`earliestEnd`) is an older count of this window, answered after a fresher one (answers to
   * requests in flight together come in any order): its request was in flight when the fresher
   * count set the budget, and is in that count, so it gives its place back. A higher count after
   * that and before the end is the next window's, already begun at the service: it and every count
   * after it are kept for when this one ends.
   */
  observe(headers: Readonly<Record<string, string | string[] | undefined>>, sentAt: number): void {
    if (this.answeredInFlight < this.inFlight) this.answeredInFlight++;
    const pace = readPace(headers);
    if (pace !== undefined) this.learn(pace, sentAt);
  }

  private learn(pace: Pace, sentAt: number): void {
    const now = this.timing.now();
    this.windowLimit = pace.limit;
    if (this.budget === undefined || now >= this.windowEnd) {
      this.statedEnd = Number.POSITIVE_INFINITY;
      this.earliestEnd = 0;
      this.windowStart = now;
      this.answered = 0;
      this.freshest = Number.POSITIVE_INFINITY;
      this.next = undefined;
    }
    // Once the next window is seen, every later count is its own: the next window's counts fall
    // below this one's freshest too, and taken for this window's they would refill at its end.
    if (this.next !== undefined || (pace.remaining > this.freshest && now >= this.earliestEnd)) {
      const next = this.next ?? { remaining: Number.POSITIVE_INFINITY, statedEnd: Number.POSITIVE_INFINITY, earliestEnd: 0, start: now, answered: 0 };
      this.next = {
        remaining: Math.min(next.remaining, pace.remaining),
        statedEnd: Math.min(next.statedEnd, now + pace.resetMs),
        earliestEnd: Math.max(next.earliestEnd, lastsPast(sentAt, pace)),
        start: next.start,
        answered: next.answered + 1,
      };
      return;
    }
    this.answered++;
    this.statedEnd = Math.min(this.statedEnd, now + pace.resetMs);
    this.earliestEnd = Math.max(this.earliestEnd, lastsPast(sentAt, pace));
    this.windowEnd = this.believedEnd();
    if (pace.remaining > this.freshest) {
      if (this.budget !== undefined) this.budget++;
      return;
    }
    this.freshest = pace.remaining;
    this.budget = pace.remaining - (this.inFlight - this.answeredInFlight);
  }

  /**
   * The window's stated end, believed up to MAX_WAIT_MS per answer it gave us: a spent 90 s window
   * is waited out to its end (in sleeps of at most the cap), while a hostile reset holds a run back
   * at most a minute per request the server let through.
   */
  private believedEnd(): number {
    return Math.min(this.statedEnd, this.windowStart + this.answered * MAX_WAIT_MS);
  }

  /** Stops every request for `ms` (bounded) and restarts the pool at one request in flight. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.timing.now() + boundedWait(ms));
    if (this.max !== Number.POSITIVE_INFINITY) this.limit = 1;
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

/** A window whose answer, to a request sent at `sentAt`, states `Reset` (rounded up) lasts past this. */
function lastsPast(sentAt: number, pace: Pace): number {
  return sentAt + pace.resetMs - 1000;
}

const shared = new Map<string, PoolGate>();

/** The process's one gate for a service (by origin): every sender to it shares its pauses and pace. */
export function sharedGate(origin: string): PoolGate {
  let gate = shared.get(origin);
  if (gate === undefined) shared.set(origin, (gate = new PoolGate()));
  return gate;
}
