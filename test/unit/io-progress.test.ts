import { describe, expect, it, vi } from 'vitest';
import { progressLine, progressText } from '../../src/io/progress.js';
import { captureIO } from '../helpers/io.js';

const ERASE = '\r\u001b[K';

describe('progress bar', () => {
  it('its text: bar, count of total, rate and ETA; without a total, count and rate; cut one column short of the width', () => {
    const at = (done: number, total: number, elapsedMs: number, more: { sent?: number; notToSend?: number } = {}) => ({ done, total, elapsedMs, sent: more.sent ?? done, notToSend: more.notToSend ?? 0 });
    expect(progressText(at(0, 300, 0), 100)).toBe(`[${'-'.repeat(30)}] 0/300 lines | 0/s`);
    expect(progressText(at(150, 300, 3000), 100)).toBe(`[${'='.repeat(15)}${'-'.repeat(15)}] 150/300 lines | 50/s | ETA 3s`);
    // More lines than counted (the total is an estimate): never "310/300".
    expect(progressText(at(310, 300, 1000), 100)).toBe(`[${'='.repeat(30)}] 310/310 lines | 310/s | ETA 0s`);
    expect(progressText(at(42, 0, 2000), 100)).toBe('42 lines | 21/s');
    expect(progressText(at(150, 300, 3000), 20)).toBe(`[${'='.repeat(15)}${'-'.repeat(3)}`);
  });

  it('the ETA counts only lines still to send, at the pace of the lines sent: replays of an earlier run neither count nor speed it up', () => {
    // 250 of 300 lines done in 5 s, 240 of them replays of an earlier run: 10 sent in 5 s, 50 left to send → 25 s (not "1s").
    expect(progressText({ done: 250, total: 300, elapsedMs: 5000, sent: 10, notToSend: 0 }, 100)).toMatch(/ \| ETA 25s$/);
    // Of the 50 left, 30 are expected to be replays too: 20 to send → 10 s.
    expect(progressText({ done: 250, total: 300, elapsedMs: 5000, sent: 10, notToSend: 30 }, 100)).toMatch(/ \| ETA 10s$/);
    // Only replays so far: no pace yet, no ETA.
    expect(progressText({ done: 100, total: 300, elapsedMs: 500, sent: 0, notToSend: 0 }, 100)).toMatch(/lines \| 200\/s$/);
  });

  it('a replay of an earlier run is not a line to send: tick() counts it off the lines expected not to be sent', () => {
    vi.useFakeTimers();
    try {
      let ms = 0;
      const c = captureIO({ tty: true, columns: 100 });
      const bar = progressLine(c.io, { total: 10, now: () => ms });
      bar.notToSend(5);
      for (let i = 0; i < 5; i++) bar.tick('already_done');
      bar.tick('created');
      ms = 1000;
      vi.advanceTimersByTime(200);
      bar.stop();
      // 6 done, 1 sent in 1 s, 4 left to send (the 5 expected replays came): 4 s.
      expect(c.stderr()).toContain('6/10 lines | 6/s | ETA 4s');
    } finally {
      vi.useRealTimers();
    }
  });

  it('drawn at once, drawn again in place as lines are done; stop erases it', () => {
    vi.useFakeTimers();
    try {
      let ms = 0;
      const c = captureIO({ tty: true, columns: 80 });
      const bar = progressLine(c.io, { total: 10, now: () => ms });
      expect(c.stderr()).toBe(`${ERASE}[${'-'.repeat(30)}] 0/10 lines | 0/s`);
      bar.tick();
      ms = 1000;
      vi.advanceTimersByTime(200);
      expect(c.stderr()).toBe(`${ERASE}[${'-'.repeat(30)}] 0/10 lines | 0/s${ERASE}[${'='.repeat(3)}${'-'.repeat(27)}] 1/10 lines | 1/s | ETA 9s`);
      bar.stop();
      expect(c.stderr().endsWith(`ETA 9s${ERASE}`)).toBe(true);
      const before = c.stderr();
      bar.stop();
      expect(c.stderr()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
