import { describe, expect, it } from 'vitest';
import { ageText, durationText, elapsedText, isoSeconds, relativeTime, spokenDuration, timeText, waitText } from '../../src/schemas/time-text.js';

describe('the one way times, ages and durations are written', () => {
  it('a duration in a cell: its largest whole unit (45 days stay days, 60 are months)', () => {
    expect([0, 59.9, 60, 4500, 86_399, 86_400, 45 * 86_400, 60 * 86_400, 400 * 86_400, -3600].map((s) => durationText(s))).toEqual(['0s', '59s', '1m', '1h', '23h', '1d', '45d', '2mo', '1y', '1h']);
    expect(durationText(4500, 2)).toBe('1h15m');
  });

  it('a duration in a sentence: the two largest units, spaced, zeros left out', () => {
    expect([666_000, 4500, 75, 42, 0, 86_400, -3600, 90.9].map((s) => spokenDuration(s))).toEqual(['7 d 17 h', '1 h 15 m', '1 m 15 s', '42 s', '0 s', '1 d', '1 h', '1 m 30 s']);
    expect(spokenDuration(102_900, 3)).toBe('1 d 4 h 35 m');
  });

  it('elapsed time to a tenth of a second, ages never below zero, relative times both ways', () => {
    expect([elapsedText(400), elapsedText(12_049)]).toEqual(['0.4 s', '12.0 s']);
    // A wait about to start (retry notices, doctor --wait): tenths below a second, never rounded down to nothing.
    expect([waitText(400), waitText(999), waitText(1000), waitText(54_001), waitText(90_000)]).toEqual(['0.4 s', '1.0 s', '1 s', '55 s', '1 m 30 s']);
    expect([ageText(180), ageText(-5)]).toEqual(['3m', '0s']);
    expect([relativeTime(1000, 1180), relativeTime(1180, 1000), relativeTime(1000, 1000.5)]).toEqual(['3m ago', 'in 3m', 'just now']);
    expect(relativeTime(1000, 1000 + 4500, spokenDuration)).toBe('1 h 15 m ago');
  });

  it('times: UTC ISO 8601 in whole seconds, or in a zone with its offset', () => {
    const at = Date.UTC(2026, 10, 22, 19, 57, 47) / 1000;
    expect(isoSeconds(at + 0.123)).toBe('2026-11-22T19:57:47Z');
    expect(timeText(at, undefined)).toBe('2026-11-22T19:57:47Z');
    expect(timeText(at, 'Europe/Amsterdam')).toBe('2026-11-22T20:57:47+01:00');
    expect(timeText(at, 'UTC')).toBe('2026-11-22T19:57:47Z');
  });
});
