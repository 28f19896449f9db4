import { describe, expect, it } from 'vitest';
import type { SkewObservation, SkewState } from '../../src/clock-skew/policy.js';
import { NO_SKEW, SKEW_BOUND_S, observe, skewToApply } from '../../src/clock-skew/policy.js';
import { readClockSkew } from '../../src/clock-skew/store.js';
import { skewTracker } from '../../src/clock-skew/tracker.js';
import { skewWarning } from '../../src/clock-skew/warning.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

const KEY = { target: 'api-0123456789abcdef', profile: 'default', testClockTrusted: true };
const fresh = (seconds: number): SkewObservation => ({ seconds, fresh: true, testClock: false });

/** The states and notices after each observation in turn. */
function walk(observations: SkewObservation[], trust = false, start: SkewState = NO_SKEW) {
  let state = start;
  return observations.map((o) => {
    const result = observe(state, o, trust);
    state = result.state;
    return { applied: skewToApply(state, trust), notice: result.notice };
  });
}

describe('clock skew policy', () => {
  it('learns only from fresh answers (a 2xx without Age)', () => {
    expect(walk([{ seconds: 30, fresh: false, testClock: false }])).toEqual([{ applied: 0, notice: undefined }]);
    expect(walk([fresh(30)])).toEqual([{ applied: 30, notice: undefined }]);
  });

  it('a large skew is said when first seen, applied once two answers agree, and warned about once per change', () => {
    expect(walk([fresh(-600), fresh(-601), fresh(-599), fresh(-640), fresh(-2000), fresh(-2001)])).toEqual([
      // Seen once: said, nothing applied.
      { applied: 0, notice: { seconds: -600, applied: false, seenOnce: true } },
      { applied: -601, notice: { seconds: -601, applied: true } },
      { applied: -599, notice: undefined },
      // Moved by more than the agreement allows, but not by the warning threshold: a new candidate,
      // the same news; the last agreed skew stays applied.
      { applied: -599, notice: undefined },
      { applied: -599, notice: { seconds: -2000, applied: false, seenOnce: true } },
      { applied: -2001, notice: { seconds: -2001, applied: true } },
    ]);
  });

  it('beyond the bound: warned, not applied, unless told to', () => {
    const years = -20 * 365 * 86_400;
    expect(walk([fresh(years), fresh(years)])).toEqual([
      { applied: 0, notice: { seconds: years, applied: false, seenOnce: true } },
      { applied: 0, notice: { seconds: years, applied: false } },
    ]);
    expect(walk([fresh(years), fresh(years)], true).at(-1)).toEqual({ applied: years, notice: { seconds: years, applied: true } });
    expect(walk([fresh(SKEW_BOUND_S), fresh(SKEW_BOUND_S)]).at(-1)?.applied).toBe(SKEW_BOUND_S);
  });

  it('a test clock is trusted at once, without the bound, and never warned about', () => {
    const twoDays = 2 * 86_400;
    expect(walk([{ seconds: twoDays, fresh: true, testClock: true }, { seconds: twoDays + 600, fresh: true, testClock: true }])).toEqual([
      { applied: twoDays, notice: undefined },
      { applied: twoDays + 600, notice: undefined },
    ]);
  });

  it('one line, its size in the two largest units', () => {
    expect(skewWarning({ seconds: -666_000, applied: true })).toBe(
      "The service's clock is 7 d 17 h behind this machine's (from its Date header); times given as now, -15m or today 14:30 are corrected by it",
    );
    expect(skewWarning({ seconds: 600, applied: false, seenOnce: true })).toBe(
      "The service's clock is 10 m ahead of this machine's (from its Date header); one answer says so: nothing is corrected until another agrees",
    );
    expect(skewWarning({ seconds: 666_000, applied: false })).toBe(
      "The service's clock is 7 d 17 h ahead of this machine's (from its Date header); not corrected, being over 1 h: fix the clock that is wrong, or set PARCELS_TRUST_CLOCK_SKEW=1 to correct times by it",
    );
  });
});

describe('clock skew tracker', () => {
  it('keeps the state between commands: the warning shows once per target and change, not per command', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const commands: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { io, stderr } = captureIO({ env });
      const tracker = skewTracker({ io, env, key: async () => KEY });
      tracker.observed(fresh(-600));
      const applied = await tracker.current();
      await tracker.close();
      commands.push(`${applied} ${stderr()}`);
    }
    expect(commands).toEqual([
      "0 ! The service's clock is 10 m behind this machine's (from its Date header); one answer says so: nothing is corrected until another agrees\n",
      "-600 ! The service's clock is 10 m behind this machine's (from its Date header); times given as now, -15m or today 14:30 are corrected by it\n",
      '-600 ',
    ]);
    expect(await readClockSkew(env, KEY.target, KEY.profile)).toEqual({ applied: -600, accepted: -600, warned: -600 });
    // Kept per profile: another profile on the same service starts from nothing.
    const other = captureIO({ env });
    expect(await skewTracker({ io: other.io, env, key: async () => ({ ...KEY, profile: 'ci' }) }).current()).toBe(0);
  });

  it('a skew seen once is said once in a command, however many answers disagree after it', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const { io, stderr } = captureIO({ env });
    const tracker = skewTracker({ io, env, key: async () => KEY });
    for (const seconds of [600, 1200, 1800, 2400]) tracker.observed(fresh(seconds));
    expect(await tracker.current()).toBe(0);
    await tracker.close();
    expect(stderr()).toBe("! The service's clock is 10 m ahead of this machine's (from its Date header); one answer says so: nothing is corrected until another agrees\n");
  });

  it('one command whose second answer agrees with its first: only the applied skew is said', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const { io, stderr } = captureIO({ env });
    const tracker = skewTracker({ io, env, key: async () => KEY });
    tracker.observed(fresh(600));
    expect(await tracker.current()).toBe(0);
    tracker.observed(fresh(601));
    expect(await tracker.current()).toBe(601);
    await tracker.close();
    expect(stderr()).toBe("! The service's clock is 10 m 1 s ahead of this machine's (from its Date header); times given as now, -15m or today 14:30 are corrected by it\n");
  });

  it('a command that heard nothing keeps nothing and never asks for its target', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const { io } = captureIO({ env });
    await skewTracker({ io, env, key: () => Promise.reject(new Error('no target wanted')) }).close();
  });
});
