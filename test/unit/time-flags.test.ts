import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeFlag } from '../../src/args/time-input.js';
import { UsageError } from '../../src/errors.js';

// Local time is the process's time zone: pinned here to one with a non-zero offset (UTC+1 in
// November), so "no offset means local" cannot pass by accident on a UTC machine.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Amsterdam';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** 2026-11-23T12:00:00Z = 13:00 in Amsterdam. */
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0) / 1000;
const at = (value: string): number => timeFlag(value, '--at', NOW);

describe('time flags', () => {
  it('Unix seconds and now', () => {
    expect(at('1763798400')).toBe(1763798400);
    expect(at('now')).toBe(NOW);
    expect(at(' NOW ')).toBe(NOW);
  });

  it('ISO 8601 with an offset is that instant', () => {
    expect(at('2026-11-22T08:00:00Z')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
    expect(at('2026-11-22T09:00+01:00')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
    expect(at('2026-11-22T03:30:00-0430')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
    expect(at('2026-11-22T08:00:00.750Z')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
  });

  it('ISO 8601 without an offset is local time (a date alone is local midnight)', () => {
    expect(at('2026-11-22T09:00')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
    expect(at('2026-11-22 09:00:30')).toBe(Date.UTC(2026, 10, 22, 8, 0, 30) / 1000);
    expect(at('2026-11-22')).toBe(Date.UTC(2026, 10, 21, 23) / 1000);
    // Summer time: UTC+2.
    expect(at('2026-07-01T12:00')).toBe(Date.UTC(2026, 6, 1, 10) / 1000);
  });

  it('relative times count from now', () => {
    expect(at('-15m')).toBe(NOW - 900);
    expect(at('-2h')).toBe(NOW - 7200);
    expect(at('-1d')).toBe(NOW - 86_400);
    expect(at('-30s')).toBe(NOW - 30);
    expect(at('15m ago')).toBe(NOW - 900);
    expect(at('2 hours ago')).toBe(NOW - 7200);
    expect(at('+2h')).toBe(NOW + 7200);
    expect(at('in 30m')).toBe(NOW + 1800);
  });

  it('today/yesterday/tomorrow with a local time of day', () => {
    expect(at('today 14:30')).toBe(Date.UTC(2026, 10, 23, 13, 30) / 1000);
    expect(at('yesterday 09:00')).toBe(Date.UTC(2026, 10, 22, 8) / 1000);
    expect(at('tomorrow 08:00:15')).toBe(Date.UTC(2026, 10, 24, 7, 0, 15) / 1000);
    // Across a month end: 1 December, "yesterday" is 30 November.
    const december = Date.UTC(2026, 11, 1, 12) / 1000;
    expect(timeFlag('yesterday 09:00', '--at', december)).toBe(Date.UTC(2026, 10, 30, 8) / 1000);
  });

  it.each(['tomorrow', 'soon', '2026-13-01T00:00Z', '2026-02-30', 'today 25:00', '-15x', '15m', '1.5', '', '-1763798400'])(
    'rejects %j naming the flag and listing the forms',
    (value) => {
      let error: unknown;
      try {
        timeFlag(value, '--slot-end', NOW);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).field).toBe('--slot-end');
      expect((error as UsageError).message).toBe(
        '--slot-end must be Unix seconds (1763798400), ISO 8601 with an offset (2026-11-22T08:00:00Z, 2026-11-22T09:00+01:00) ' +
          'or without one (2026-11-22T09:00, local time), "now", a relative time (-15m, -2h, -1d, 15m ago, +2h, in 30m), ' +
          `or a day and a local time (today 14:30, yesterday 09:00, tomorrow 08:00) (got ${JSON.stringify(value)})`,
      );
    },
  );
});
