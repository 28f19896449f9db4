import { describe, expect, it } from 'vitest';
import { skewTracker } from '../../src/clock-skew.js';
import { readClockSkew } from '../../src/config/clock-skew.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

const KEY = { target: 'api-0123456789abcdef', profile: 'default' };

describe('clock skew tracker', () => {
  it('warns once above 60 s, keeps the latest measurement, and the next command starts from it', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const first = captureIO({ env });
    const tracker = skewTracker({ io: first.io, env, key: async () => KEY });
    expect(await tracker.current()).toBe(0);
    tracker.measured(45);
    expect(await tracker.current()).toBe(45);
    tracker.measured(-600);
    tracker.measured(-601);
    await tracker.close();
    expect(first.stderr()).toBe(
      "! The service's clock is 10 min behind this machine's (-600 s, from its Date header); times given as now, -15m or today 14:30 are corrected by it\n",
    );
    expect(await readClockSkew(env, KEY.target, KEY.profile)).toBe(-601);

    const next = captureIO({ env });
    const again = skewTracker({ io: next.io, env, key: async () => KEY });
    expect(await again.current()).toBe(-601);
    await again.close();
    expect(next.stderr()).toBe('');
    // Kept per profile: another profile on the same service starts from nothing.
    expect(await skewTracker({ io: next.io, env, key: async () => ({ ...KEY, profile: 'ci' }) }).current()).toBe(0);
  });

  it('an ahead clock reads "ahead of"; no key (the embedded sandbox) keeps nothing', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const { io, stderr } = captureIO({ env });
    const tracker = skewTracker({ io, env, key: async () => undefined });
    tracker.measured(75);
    await tracker.close();
    expect(stderr()).toBe(
      "! The service's clock is 1 min 15 s ahead of this machine's (+75 s, from its Date header); times given as now, -15m or today 14:30 are corrected by it\n",
    );
    expect(await tracker.current()).toBe(75);
    expect(await readClockSkew(env, KEY.target, KEY.profile)).toBeUndefined();
  });
});
