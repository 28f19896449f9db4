/** `sandbox clock` for a person: the time first, how far it is moved from this machine's clock, the milliseconds last. */
import { describe, expect, it } from 'vitest';
import { clockForPeople } from '../../src/commands/sandbox/clock.js';

const NOW = 1_795_800_000;
const at = (seconds: number) => ({ now_ms: seconds * 1000, now: new Date(seconds * 1000).toISOString(), frozen: false, speed: 1 });

describe('clockForPeople', () => {
  it('says how far ahead or behind the sandbox clock is, in step within a second', () => {
    expect(clockForPeople(at(NOW + 72_000), NOW)).toEqual({ now: at(NOW + 72_000).now, moved: '20 h ahead of this machine', frozen: false, speed: 1, now_ms: (NOW + 72_000) * 1000 });
    expect((clockForPeople(at(NOW - 300), NOW) as { moved: string }).moved).toBe('5 m behind this machine');
    expect(Object.keys(clockForPeople(at(NOW), NOW) as object)).toEqual(['now', 'moved', 'frozen', 'speed', 'now_ms']);
    expect((clockForPeople(at(NOW), NOW) as { moved: string }).moved).toBe('in step with this machine');
  });

  it('an answer not of the admin route shape is shown as it came', () => {
    expect(clockForPeople({ now: 5 }, NOW)).toEqual({ now: 5 });
    expect(clockForPeople('x', NOW)).toBe('x');
  });
});
