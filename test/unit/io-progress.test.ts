import { describe, expect, it } from 'vitest';
import { progressLine, progressText } from '../../src/io/progress.js';
import { captureIO } from '../helpers/io.js';

const ERASE = '\r\u001b[K';

describe('progress bar', () => {
  it('its text: bar, count of total, rate and ETA; without a total, count and rate; cut one column short of the width', () => {
    expect(progressText(0, 300, 0, 100)).toBe(`[${'-'.repeat(30)}] 0/300 lines | 0/s`);
    expect(progressText(150, 300, 3000, 100)).toBe(`[${'='.repeat(15)}${'-'.repeat(15)}] 150/300 lines | 50/s | ETA 3s`);
    // More lines than counted (the total is an estimate): never "310/300".
    expect(progressText(310, 300, 1000, 100)).toBe(`[${'='.repeat(30)}] 310/310 lines | 310/s | ETA 0s`);
    expect(progressText(42, 0, 2000, 100)).toBe('42 lines | 21/s');
    expect(progressText(150, 300, 3000, 20)).toBe(`[${'='.repeat(15)}${'-'.repeat(3)}`);
  });

  it('drawn at once; output above it takes it off its line and draws it again below; stop erases it', () => {
    let ms = 0;
    const c = captureIO({ tty: true, columns: 80 });
    const bar = progressLine(c.io, { total: 10, now: () => ms });
    expect(c.stderr()).toBe(`${ERASE}[${'-'.repeat(30)}] 0/10 lines | 0/s`);
    bar.tick();
    ms = 1000;
    const written = bar.above(() => {
      c.io.stderr.write('{"line":1}\n');
      return 'done';
    });
    expect(written).toBe('done');
    expect(c.stderr()).toBe(`${ERASE}[${'-'.repeat(30)}] 0/10 lines | 0/s${ERASE}{"line":1}\n${ERASE}[${'='.repeat(3)}${'-'.repeat(27)}] 1/10 lines | 1/s | ETA 9s`);
    bar.stop();
    expect(c.stderr().endsWith(`ETA 9s${ERASE}`)).toBe(true);
    const before = c.stderr();
    bar.above(() => c.io.stderr.write('after\n'));
    bar.stop();
    expect(c.stderr()).toBe(`${before}after\n`);
  });
});
