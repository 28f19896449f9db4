/**
 * The one place for the clock-skew rules: the thresholds doctor and the warning use, and what one
 * answer may change about the skew a command applies to `now`. Pure: no files, no output.
 *
 * A stale Date (from a cache, or a broken server clock) must not silently back-date writes, so:
 * - only a fresh answer teaches: a 2xx without an `Age` header;
 * - a skew above SKEW_WARN_S is trusted only once two answers agree (within SKEW_AGREE_S), in one
 *   command or across commands; the first answer that shows it calls for a notice (nothing applied),
 *   which the tracker says once, when the command ends, unless a later answer settles it;
 * - beyond SKEW_BOUND_S it is not applied at all unless PARCELS_TRUST_CLOCK_SKEW=1 says to;
 * - a target that says its clock is a test clock (the sandbox's `Parcels-Test-Clock` header) is
 *   trusted at once and without the bound, and is not warned about: its clock was moved on purpose.
 *   Only a sandbox may say so (trustsTestClock); from any other service the header is ignored, with
 *   a warning, and its Date is judged as any service's.
 */
import { MAX_FUTURE_SKEW_S } from '../schemas/observation-window.js';
import { isLoopbackUrl } from '../schemas/host.js';

/**
 * The Date header has whole seconds and an answer takes time to arrive, so a measured skew of one
 * second either way is within the error of the measurement: it counts as none.
 */
export const SKEW_NOISE_S = 1;
/** A skew this large is worth a warning (the service accepts observation times up to five minutes ahead). */
export const SKEW_WARN_S = 60;
/** Doctor fails its clock check above this: event and attempt times more than five minutes ahead are rejected. */
export const SKEW_FAIL_S = MAX_FUTURE_SKEW_S;
/** The largest skew applied to `now` without being told to (PARCELS_TRUST_CLOCK_SKEW=1). */
export const SKEW_BOUND_S = 3600;
/** Two measurements this close agree (the Date header has whole seconds; an answer takes time). */
export const SKEW_AGREE_S = 5;
/** A kept state older than this is dropped: clocks get fixed and drift. */
export const SKEW_MAX_AGE_S = 30 * 86_400;
/** Set to 1 to apply a skew beyond SKEW_BOUND_S. */
export const TRUST_SKEW_ENV = 'PARCELS_TRUST_CLOCK_SKEW';

/**
 * Whose Parcels-Test-Clock header is believed: the embedded sandbox (--sandbox), a loopback base
 * URL, and a profile the user marked as a sandbox (`parcels config set sandbox yes`). The CLI's
 * skew correction and doctor's clock check both ask this.
 */
export function trustsTestClock(target: { embedded: boolean; baseUrl: string | undefined; markedSandbox: boolean }): boolean {
  return target.embedded || target.markedSandbox || isLoopbackUrl(target.baseUrl);
}

/** What one answer says about the service's clock. */
export interface SkewObservation {
  /** Service clock minus ours, in seconds, from its Date header. */
  seconds: number;
  /** A 2xx without an Age header: the Date is the service's own, now. */
  fresh: boolean;
  /** The answer said the service's clock is a test clock (moved, sped up or frozen on purpose). */
  testClock: boolean;
}

/** What is kept per target and profile between commands. */
export interface SkewState {
  /** The skew applied to `now`, seconds (0: none); skewToApply adds what PARCELS_TRUST_CLOCK_SKEW allows. */
  applied: number;
  /** A large skew seen once, waiting for a second answer to agree. */
  candidate?: number;
  /** The large skew two answers last agreed on: a later one close to it needs no new agreement. */
  accepted?: number;
  /** The skew last warned about: the warning is shown once per target and change. */
  warned?: number;
  /** The target's clock is a test clock. */
  testClock?: boolean;
}

export const NO_SKEW: SkewState = { applied: 0 };

/**
 * Why a warning is shown, with the skew it is about: `seenOnce`, one answer showed it and nothing is
 * applied until another agrees; else two agreed, and `applied` says whether `now` follows it.
 */
export type SkewNotice = { seconds: number; applied: boolean; seenOnce?: true };

/** A measured skew, with one within the measurement's error (SKEW_NOISE_S) counted as none. */
export function beyondNoise(seconds: number): number {
  return Math.abs(seconds) <= SKEW_NOISE_S ? 0 : seconds;
}

function agree(a: number, b: number): boolean {
  return Math.abs(a - b) <= SKEW_AGREE_S;
}

/** The state after one answer, and the warning it calls for, if any. */
export function observe(state: SkewState, o: SkewObservation, trustBeyondBound: boolean): { state: SkewState; notice?: SkewNotice } {
  if (!o.fresh) return { state };
  if (o.testClock) return { state: { applied: beyondNoise(o.seconds), testClock: true } };
  // A test clock that is back to normal (a fresh sandbox database) is learned afresh.
  if (state.testClock === true) state = NO_SKEW;
  const s = beyondNoise(o.seconds);
  if (Math.abs(s) <= SKEW_WARN_S) return { state: { applied: s } };
  const agreed = [state.candidate, state.accepted].some((earlier) => earlier !== undefined && agree(earlier, s));
  // Once per target and change: a skew that moved by less than the warning threshold is the same news.
  const same = state.warned !== undefined && Math.abs(state.warned - s) <= SKEW_WARN_S;
  if (!agreed) {
    const waiting: SkewState = { ...state, testClock: false, candidate: s };
    return same ? { state: waiting } : { state: waiting, notice: { seconds: s, applied: false, seenOnce: true } };
  }
  const withinBound = Math.abs(s) <= SKEW_BOUND_S;
  const next: SkewState = { applied: withinBound ? s : 0, accepted: s, warned: same ? (state.warned as number) : s };
  return same ? { state: next } : { state: next, notice: { seconds: s, applied: withinBound || trustBeyondBound } };
}

/** The skew to apply to `now`: the state's, or the agreed one beyond the bound when told to trust it. */
export function skewToApply(state: SkewState, trustBeyondBound: boolean): number {
  return trustBeyondBound && state.accepted !== undefined && Math.abs(state.accepted) > SKEW_BOUND_S ? state.accepted : state.applied;
}
