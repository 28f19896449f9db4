import { describe, expect, it } from 'vitest';
import { startSpinner } from '../../src/io/spinner.js';
import { captureIO } from '../helpers/io.js';

describe('startSpinner', () => {
  it('is a silent no-op off a TTY', async () => {
    const c = captureIO({ tty: false });
    const spinner = await startSpinner(c.io, 'Fetching parcels');
    spinner.update('page 2');
    spinner.succeed('Fetched 3 parcels');
    spinner.fail('nope');
    spinner.stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(c.stderr()).toBe('');
    expect(c.stdout()).toBe('');
  });

  it('spins on stderr on a TTY, never on stdout', async () => {
    const c = captureIO({ tty: true });
    const spinner = await startSpinner(c.io, 'Fetching parcels');
    spinner.update('page 2');
    await new Promise((r) => setTimeout(r, 120));
    spinner.succeed('Fetched 3 parcels');
    spinner.stop();
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
