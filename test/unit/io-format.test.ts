import { describe, expect, it } from 'vitest';
import { formatCell, isTimestampField, codeName } from '../../src/io/format.js';
import { relativeTime } from '../../src/schemas/time-text.js';

const NOW = 1795377467; // 2026-11-22T19:57:47Z
const plain = { now: NOW, colour: false };
const tty = { now: NOW, colour: false, tty: true };

describe('formatCell: codes', () => {
  it('names status 0–3 from the spec', () => {
    expect(formatCell('status', 2, plain)).toBe('2 in_transit');
    expect(formatCell('status', 0, plain)).toBe('0 registered');
  });
  it('shows the bare number when no name is known', () => {
    expect(formatCell('status', 4, plain)).toBe('4');
    expect(formatCell('service_type', 1, plain)).toBe('1');
    expect(formatCell('location_type', 3, plain)).toBe('3');
  });
  it('uses learned names first', () => {
    expect(formatCell('status', 4, { ...plain, names: { status: { 4: 'delivered' } } })).toBe('4 delivered');
    expect(formatCell('status', 2, { ...plain, names: { status: { 2: 'onderweg' } } })).toBe('2 onderweg');
    expect(formatCell('service_type', 1, { ...plain, names: { service_type: { 1: 'same_day' } } })).toBe('1 same_day');
  });
  it('names outcome, reason and delivered_location_type (also as dotted paths)', () => {
    expect(formatCell('outcome', 3, plain)).toBe('3 refused');
    expect(formatCell('reason', 7, plain)).toBe('7 vehicle_traffic');
    expect(formatCell('delivered.delivered_location_type', 2, { ...plain, names: { location_type: { 2: 'neighbour' } } })).toBe(
      '2 neighbour',
    );
    expect(codeName('delivered_location_type', 2)).toBeUndefined();
  });
  it('leaves non-integer codes and other fields alone', () => {
    expect(formatCell('status', 'in_transit', plain)).toBe('in_transit');
    expect(formatCell('status', 2.5, plain)).toBe('2.5');
    expect(formatCell('parcel_weight', 2, plain)).toBe('2');
  });
});

describe('formatCell: timestamps', () => {
  it('recognises timestamp fields', () => {
    for (const f of ['created_at', 'occurred_at', 'time_attempt', 'time_slot_period_start', 'a.updated_at']) {
      expect(isTimestampField(f)).toBe(true);
    }
    for (const f of ['status', 'attempts', 'timestamp', 'format']) expect(isTimestampField(f)).toBe(false);
  });
  it('prints ISO 8601 UTC with a relative time on a TTY', () => {
    expect(formatCell('created_at', NOW - 180, tty)).toBe('2026-11-22T19:54:47Z (3m ago)');
    expect(formatCell('time_slot_period_end', NOW + 7200, tty)).toBe('2026-11-22T21:57:47Z (in 2h)');
    expect(formatCell('time_attempt', NOW, tty)).toBe('2026-11-22T19:57:47Z (just now)');
  });
  it('prints bare ISO 8601 off a TTY (stable for scripts)', () => {
    expect(formatCell('occurred_at', NOW - 180, plain)).toBe('2026-11-22T19:54:47Z');
  });
  it('dims the relative part with colour', () => {
    expect(formatCell('created_at', NOW - 180, { ...tty, colour: true })).toBe('2026-11-22T19:54:47Z \u001b[2m(3m ago)\u001b[22m');
  });
  it('leaves non-integers and absurd values as they are', () => {
    expect(formatCell('created_at', '2026-01-01', plain)).toBe('2026-01-01');
    expect(formatCell('created_at', 1795377467000, plain)).toBe('1795377467000');
  });
  it('relativeTime units', () => {
    expect(relativeTime(NOW - 30, NOW)).toBe('30s ago');
    expect(relativeTime(NOW - 3 * 86400, NOW)).toBe('3d ago');
    expect(relativeTime(NOW - 90 * 86400, NOW)).toBe('3mo ago');
    expect(relativeTime(NOW + 400 * 86400, NOW)).toBe('in 1y');
  });
});

describe('formatCell: other values', () => {
  it('null/undefined: empty off a TTY, "-" on a TTY (dim with colour)', () => {
    expect(formatCell('addition', null, plain)).toBe('');
    expect(formatCell('addition', undefined, plain)).toBe('');
    expect(formatCell('addition', null, tty)).toBe('-');
    expect(formatCell('addition', null, { ...tty, colour: true })).toBe('\u001b[2m-\u001b[22m');
  });
  it('booleans yes/no, nested values as compact JSON', () => {
    expect(formatCell('active', true, plain)).toBe('yes');
    expect(formatCell('active', false, plain)).toBe('no');
    expect(formatCell('delivered', { delivered_city: 'Utrecht', n: [1, 2] }, plain)).toBe('{"delivered_city":"Utrecht","n":[1,2]}');
  });
  it('strings become one safe line: breaks to spaces, escape sequences removed', () => {
    expect(formatCell('street', 'a\tb\nc\r\nd', plain)).toBe('a b c d');
    expect(formatCell('street', 'x\u001b[31my', plain)).toBe('x[31my');
  });
  it('never colours without colour', () => {
    expect(formatCell('created_at', NOW, tty)).not.toContain('\u001b');
  });
});
