/**
 * What a terminal's default table shows to fit 100 columns (issue 30), and what `-o wide` and piped
 * text keep whole: short unique id prefixes, compact local times, one form for a code, records
 * without their empty fields and with units, and a timeline naming the columns it leaves out.
 */
import { describe, expect, it } from 'vitest';
import { codeText, formatCell } from '../../src/io/format.js';
import type { FormatContext } from '../../src/io/format.js';
import { renderRecord } from '../../src/io/render.js';
import { shortIdsAmong, terminalShortIds } from '../../src/io/short-ids.js';
import { compactTime } from '../../src/schemas/time-text.js';
import { buildTimeline } from '../../src/schemas/timeline.js';
import { renderTimeline } from '../../src/track/view.js';
import { captureIO } from '../helpers/io.js';

const NOW = Date.UTC(2026, 10, 27, 19, 0, 0) / 1000;

describe('short ids: the shortest prefix of 8 or more characters unique among the ids the resolver reads', () => {
  const A = '2e52db35-515c-4ffa-a6a4-63607ae6d34a';
  const B = '2e52db35-515d-4ffa-a6a4-63607ae6d34a';
  const C = '666fdf17-916e-4b77-9061-51c7c1db6b61';
  it('8 characters when they tell the id apart, more when another id shares them, never ending on a dash', () => {
    const short = shortIdsAmong([A, B, C]);
    expect(short(C)).toBe('666fdf17');
    // A and B share `2e52db35-515`: 13 characters tell them apart (8 would end on the dash: 10 at least).
    expect(short(A)).toBe('2e52db35-515c');
    expect(short(B)).toBe('2e52db35-515d');
    expect(shortIdsAmong([A, C])(A)).toBe('2e52db35');
    // Compared without case, as the resolver does.
    expect(shortIdsAmong([A.toUpperCase(), C])(A)).toBe('2e52db35');
  });
  it('whole when the id is not in the set (its prefix would not resolve) or not a UUID', () => {
    expect(shortIdsAmong([C])(A)).toBe(A);
    expect(shortIdsAmong(['not-a-uuid-at-all'])('not-a-uuid-at-all')).toBe('not-a-uuid-at-all');
    // Two ids differing only in their last character: the whole id.
    const D = `${A.slice(0, -1)}b`;
    expect(shortIdsAmong([A, D])(A)).toBe(A);
  });
  it('only on a terminal in the default table: -o wide, piped text and JSON keep ids whole', async () => {
    const read = async (tty: boolean, format: string): Promise<string | undefined> =>
      (await terminalShortIds({ io: { stdoutIsTTY: tty }, outputFormat: () => format, prefixIds: async () => [A, C] }))?.(A);
    expect(await read(true, 'table')).toBe('2e52db35');
    expect(await read(true, 'wide')).toBeUndefined();
    expect(await read(false, 'table')).toBeUndefined();
    expect(await read(true, 'json')).toBeUndefined();
  });
});

describe('compact times on a terminal (schemas/time-text.ts)', () => {
  const at = (iso: string): number => Date.parse(iso) / 1000;
  it('today, then day and month, then the year: to the minute in the display zone', () => {
    expect(compactTime(at('2026-11-27T18:45:15Z'), 'Europe/Amsterdam', NOW)).toBe('today 19:45');
    // Past midnight in Amsterdam is another day, though still the 27th in UTC.
    expect(compactTime(at('2026-11-27T23:30:00Z'), 'Europe/Amsterdam', NOW)).toBe('28 Nov 00:30');
    expect(compactTime(at('2026-11-27T23:30:00Z'), 'UTC', NOW)).toBe('today 23:30');
    expect(compactTime(at('2026-11-26T10:05:00Z'), 'UTC', NOW)).toBe('26 Nov 10:05');
    expect(compactTime(at('2025-01-02T00:00:00Z'), 'UTC', NOW)).toBe('2 Jan 2025 00:00');
  });
  it('a record shows it with its age; -o wide and piped text the whole time', () => {
    const ctx: FormatContext = { now: NOW, colour: false, tty: true, timeZone: 'Europe/Amsterdam', compact: true };
    expect(formatCell('created_at', NOW - 180, ctx)).toBe('today 19:57 (3m ago)');
    expect(formatCell('created_at', NOW - 180, { ...ctx, compact: false })).toBe('2026-11-27T19:57:00+01:00 (3m ago)');
    expect(formatCell('created_at', NOW - 180, { now: NOW, colour: false })).toBe('2026-11-27T18:57:00Z');
  });
});

describe('a code as shown: one helper for every view', () => {
  const terminal: FormatContext = { now: NOW, colour: false, tty: true, compact: true };
  const whole: FormatContext = { now: NOW, colour: false };
  it('the name alone on a terminal, number and name in -o wide and piped text, the number when no name is known', () => {
    expect(codeText('status', 2, terminal)).toBe('in_transit');
    expect(codeText('status', 2, whole)).toBe('2 in_transit');
    expect(codeText('reason', 1, terminal)).toBe('not_at_home');
    expect(codeText('event', 2, terminal)).toBeUndefined();
    expect(codeText('status', 9, terminal)).toBe('9');
    expect(formatCell('outcome', 2, terminal)).toBe('delivered_elsewhere');
    expect(formatCell('status', 0, whole)).toBe('0 registered');
  });
});

describe('records on a terminal', () => {
  const parcel = { entry_id: 'p-1', courier: 'A-BIKE', addition: null, parcel_length: null, parcel_weight: 1200, service_type: null, status: 2 };
  it('leave out empty fields and show units from the field table; -o wide shows every field', async () => {
    const terminal = captureIO({ tty: true });
    await renderRecord(terminal.io, parcel, { format: 'table', now: NOW });
    expect(terminal.stdout()).toBe('entry_id       p-1\ncourier        A-BIKE\nparcel_weight  1200 g\nstatus         in_transit\n');
    const wide = captureIO({ tty: true });
    await renderRecord(wide.io, parcel, { format: 'wide', now: NOW });
    expect(wide.stdout()).toBe(
      'entry_id       p-1\ncourier        A-BIKE\naddition       -\nparcel_length  -\nparcel_weight  1200 g\nservice_type   -\nstatus         2 in_transit\n',
    );
    // Piped: every field, the value as the service sent it.
    const piped = captureIO({ tty: false });
    await renderRecord(piped.io, parcel, { format: 'table', now: NOW });
    expect(piped.stdout()).toBe('entry_id\tp-1\ncourier\tA-BIKE\naddition\t\nparcel_length\t\nparcel_weight\t1200\nservice_type\t\nstatus\t2 in_transit\n');
  });
});

describe('a timeline names what it leaves out, at any width', () => {
  const entries = buildTimeline(
    [{ occurred_at: NOW - 7200, status: 1 }],
    [{ time_attempt: NOW - 3600, outcome: 2, reason: 0, attempt_no: 1, delivered: { delivered_country: 'NL', delivered_postal_code: '1011AB', delivered_number: '5' } }],
  );
  const draw = async (columns: number): Promise<{ stdout: string; stderr: string }> => {
    const c = captureIO({ tty: true, columns });
    c.io.timeZone = 'UTC';
    await renderTimeline(c.io, entries.map((entry) => ({ entry })), { now: NOW, header: true, withId: false });
    return { stdout: c.stdout(), stderr: c.stderr() };
  };
  it('whole at 100 columns (no column over nothing: REASON is empty), narrower with the Not shown line', async () => {
    expect(await draw(100)).toEqual({
      stdout:
        'TIME         AGE     ENTRY      STATE                DELIVERED\n' +
        'today 17:00  2h ago  event      picked_up\n' +
        'today 18:00  1h ago  attempt 1  delivered_elsewhere  5, 1011AB, NL\n',
      stderr: '',
    });
    expect(await draw(45)).toEqual({
      stdout: 'TIME         ENTRY      STATE\ntoday 17:00  event      picked_up\ntoday 18:00  attempt 1  delivered_elsewhere\n',
      stderr: 'Not shown at 45 columns: AGE, DELIVERED (widen the terminal, or use -o wide or --json)\n',
    });
  });
});
