import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSpinner } from '../../src/io/spinner.js';
import { captureIO } from '../helpers/io.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startSpinner', () => {
  it('is a silent no-op off a TTY', async () => {
    vi.useFakeTimers();
    const c = captureIO({ tty: false });
    const spinner = await startSpinner(c.io, 'Fetching parcels');
    spinner.update('page 2');
    spinner.succeed('Fetched 3 parcels');
    spinner.fail('nope');
    spinner.stop();
    // Nothing left to write later: no timer was ever set.
    expect(vi.getTimerCount()).toBe(0);
    expect(c.stderr()).toBe('');
    expect(c.stdout()).toBe('');
  });

  it('spins on stderr on a TTY, never on stdout', async () => {
    vi.useFakeTimers();
    const c = captureIO({ tty: true });
    const spinner = await startSpinner(c.io, 'Fetching parcels');
    spinner.update('page 2');
    vi.advanceTimersByTime(200);
    expect(c.stderr()).toContain('page 2');
    spinner.succeed('Fetched 3 parcels');
    spinner.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toContain('Fetched 3 parcels');
    expect(c.stderr()).toContain('✓');
  });

  it('stop() without text leaves no final line', async () => {
    const c = captureIO({ tty: true });
    const spinner = await startSpinner(c.io, 'Working');
    spinner.stop();
    spinner.succeed('late');
    expect(c.stderr()).not.toContain('late');
  });
});
