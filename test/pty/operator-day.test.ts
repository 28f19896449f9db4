/**
 * Issue 30's "done when" at a real terminal (bash on a pty, the built CLI): a postcode typed as
 * people write it is stored in the one form, `patch` takes create's field flags, and a typo gets a
 * did-you-mean that works when pasted.
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startShell, typedCommand } from '../helpers/pty.js';
import { parcels } from '../helpers/spawn.js';
import { newParcel, servedForFile } from '../helpers/served.js';

const { env } = servedForFile();

async function read(path: string[]): Promise<Record<string, unknown>> {
  const r = await parcels([...path, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe.skipIf(!hasPty)("an operator's day at a terminal", () => {
  it('--delivered-postal-code "1234 ab" is stored as 1234AB; patch --slot-start sets the slot; `parcels evnts` suggests the command that works', async () => {
    const delivered = await newParcel(env);
    const patched = await newParcel(env);
    const term = startShell({ env });

    const attempt = await typedCommand(term, `parcels attempts add ${delivered} --outcome delivered --delivered-country nl --delivered-postal-code "1234 ab" --delivered-number 5`);
    expect(attempt.code, attempt.lines.join('\n')).toBe(0);
    const attempts = (await read(['attempts', 'list', delivered])).attempts as Record<string, unknown>[];
    expect(attempts[0]?.delivered).toMatchObject({ delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '5' });

    expect((await typedCommand(term, `parcels get ${patched} >/dev/null`)).code).toBe(0);
    const patch = await typedCommand(term, `parcels patch ${patched} --slot-start 2026-12-01T09:00Z --slot-end 2026-12-01T11:00Z`);
    expect(patch.code, patch.lines.join('\n')).toBe(0);
    expect(await read(['get', patched])).toMatchObject({ time_slot_period_start: Date.UTC(2026, 11, 1, 9) / 1000, time_slot_period_end: Date.UTC(2026, 11, 1, 11) / 1000 });

    const typo = await typedCommand(term, `parcels evnts list ${patched}`);
    expect(typo.code).toBe(2);
    const suggested = `parcels events list ${patched}`;
    expect(typo.lines).toContain(`Hint: did you mean \`${suggested}\`?`);
    const pasted = await typedCommand(term, `${suggested} >/dev/null`);
    expect(pasted.code).toBe(0);

    term.type('exit\r');
    expect(await term.exited).toBe(0);
  });
});
