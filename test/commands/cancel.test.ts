/** Cancellation: the command's AbortSignal ends it as 130 (SIGINT) or 143 (SIGTERM), printing nothing half-done. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { captureIO } from '../helpers/io.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

async function cancelled(argv: string[], reason: 'SIGINT' | 'SIGTERM') {
  const env = h.env();
  const captured = captureIO({ env });
  const controller = new AbortController();
  controller.abort(reason);
  const code = await run(argv, { io: captured.io, env, signal: controller.signal });
  return h.record({ code, stdout: captured.stdout(), stderr: captured.stderr() });
}

describe('cancellation', () => {
  it('SIGINT → exit 130, SIGTERM → exit 143, nothing on stdout or stderr', async () => {
    await createParcel(h);
    expect(await cancelled(['list', '--all', '--output', 'ndjson'], 'SIGINT')).toEqual({ code: 130, stdout: '', stderr: '' });
    expect(await cancelled(['couriers'], 'SIGTERM')).toEqual({ code: 143, stdout: '', stderr: '' });
  });

  it('a cancelled create sends nothing', async () => {
    const before = (await h.cli(['list', '--all', '--output', 'ndjson'])).stdout;
    expect(await cancelled(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '11'], 'SIGINT')).toEqual({
      code: 130,
      stdout: '',
      stderr: '',
    });
    expect((await h.cli(['list', '--all', '--output', 'ndjson'])).stdout).toBe(before);
  });

  it('sandbox serve treats the signal as its normal stop: exit 0', async () => {
    const r = await cancelled(['sandbox', 'serve', '--port', '0', '--db', ':memory:'], 'SIGTERM');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});
