import { renderMessage } from '../io/render.js';
import type { IO } from '../io/streams.js';
import type { SkewNotice, SkewObservation, SkewState } from './policy.js';
import { NO_SKEW, TRUST_SKEW_ENV, observe, skewToApply } from './policy.js';
import { readClockSkew, writeClockSkew } from './store.js';
import { UNTRUSTED_TEST_CLOCK_WARNING, skewWarning } from './warning.js';

/** Where a skew is kept: one target (targetId of its base URL or sandbox database) and one profile. */
export interface SkewKey {
  target: string;
  profile: string;
  /** Whether the target's Parcels-Test-Clock header is believed (policy.ts trustsTestClock). */
  testClockTrusted: boolean;
}

/**
 * One command's view of the clock skew between this machine and the service: the state kept from
 * earlier commands, changed by this command's answers as policy.ts says (the client reports each),
 * a warning when the policy calls for one, and the state kept for the next command at the end.
 */
export interface SkewTracker {
  /** Service clock minus ours, in seconds, to apply to `now`: as known after this command's answers so far. */
  current(): Promise<number>;
  /** Called by the HTTP client for each answer with a Date header. */
  observed(observation: SkewObservation): void;
  /** Waits for the warning to be written and keeps the state for the next command. */
  close(): Promise<void>;
}

export function skewTracker(init: {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** Undefined when nothing is kept (no target). */
  key: () => Promise<SkewKey | undefined>;
}): SkewTracker {
  const trust = init.env[TRUST_SKEW_ENV] === '1';
  const queued: SkewObservation[] = [];
  let kept: SkewState | undefined;
  let loading: Promise<SkewState> | undefined;
  /** The kept state with this command's observations applied; set once the kept one is read. */
  let now: SkewState | undefined;
  const writes: Promise<void>[] = [];
  let testClockTrusted = false;
  let warnedUntrusted = false;
  /** A large skew one answer of this command showed, to be said when the command ends. */
  let seenOnce: SkewNotice | undefined;

  const loaded = (): Promise<SkewState> => {
    loading ??= (async () => {
      const key = await init.key();
      testClockTrusted = key?.testClockTrusted ?? false;
      kept = key === undefined ? undefined : await readClockSkew(init.env, key.target, key.profile);
      return kept ?? NO_SKEW;
    })();
    return loading;
  };

  /** The state with every observation so far applied, in order. */
  const settled = async (): Promise<SkewState> => {
    const base = await loaded();
    // Synchronous from here: calls waiting at once each drain what is queued, in order.
    let current = now ?? base;
    while (queued.length > 0) {
      let observation = queued.shift() as SkewObservation;
      if (observation.testClock && !testClockTrusted) {
        observation = { ...observation, testClock: false };
        if (!warnedUntrusted) writes.push(renderMessage(init.io, UNTRUSTED_TEST_CLOCK_WARNING, 'warn'));
        warnedUntrusted = true;
      }
      const result = observe(current, observation, trust);
      current = result.state;
      // A skew seen once is said once, at the end of the command, however many answers disagree
      // after it; unless a later answer of the same command settles it (agrees, or shows no large skew).
      if (result.notice?.seenOnce === true) seenOnce ??= result.notice;
      else if (result.notice !== undefined) writes.push(renderMessage(init.io, skewWarning(result.notice), 'warn'));
      if (current.candidate === undefined) seenOnce = undefined;
    }
    now = current;
    return current;
  };

  return {
    async current() {
      return skewToApply(await settled(), trust);
    },
    observed(observation) {
      queued.push(observation);
    },
    async close() {
      // A command that asked nothing and heard nothing has nothing to keep (and must not resolve a target for it).
      if (loading === undefined && queued.length === 0) return;
      const final = await settled();
      if (seenOnce !== undefined) writes.push(renderMessage(init.io, skewWarning(seenOnce), 'warn'));
      await Promise.all(writes);
      const key = await init.key();
      if (key === undefined || JSON.stringify(final) === JSON.stringify(kept ?? NO_SKEW)) return;
      // A failed write only costs the next command its correction.
      await writeClockSkew(init.env, key.target, key.profile, final).catch(() => undefined);
    },
  };
}
