import { describe, expect, it } from 'vitest';
import { idsFromLines } from '../../src/track/ids.js';
import { isLoopbackUrl } from '../../src/schemas/host.js';
import type { FormatContext } from '../../src/io/format.js';
import { deliveredAddress, entrySummary, stateItem, timelineCells } from '../../src/track/view.js';
import type { TimelineEntry } from '../../src/schemas/timeline.js';
import { buildTimeline, entryJson, isDelivery, isFailedAttempt, latestEntry, parcelState, takeNew } from '../../src/schemas/timeline.js';

const T = 1_700_000_000;
const ev = (status: number, at: number, extra: Record<string, unknown> = {}) => ({ status, occurred_at: at, ...extra });
const att = (outcome: number, at: number, extra: Record<string, unknown> = {}) => ({ outcome, time_attempt: at, ...extra });

describe('buildTimeline', () => {
  it('merges events and attempts in time order', () => {
    const timeline = buildTimeline([ev(0, T), ev(2, T + 200), ev(1, T + 100)], [att(1, T + 150, { attempt_no: 1 }), att(0, T + 300, { attempt_no: 2 })]);
    expect(timeline.map((e) => [e.kind, e.at])).toEqual([
      ['event', T],
      ['event', T + 100],
      ['attempt', T + 150],
      ['event', T + 200],
      ['attempt', T + 300],
    ]);
  });

  it('at the same second: events before attempts, attempts by attempt_no, otherwise the service order', () => {
    const timeline = buildTimeline([ev(3, T, { n: 'a' }), ev(2, T, { n: 'b' })], [att(0, T, { attempt_no: 2 }), att(1, T, { attempt_no: 1 })]);
    expect(timeline.map((e) => e.record)).toEqual([ev(3, T, { n: 'a' }), ev(2, T, { n: 'b' }), att(1, T, { attempt_no: 1 }), att(0, T, { attempt_no: 2 })]);
  });

  it('keeps records without their fields, at the end, events first, as the service sent them', () => {
    const timeline = buildTimeline([{ note: 'no time' }, ev(1, T), { occurred_at: T }, 'odd'], [{ outcome: 0 }, att(4, T - 10), { time_attempt: 1.5, outcome: 0 }]);
    expect(timeline).toEqual<TimelineEntry[]>([
      { kind: 'attempt', at: T - 10, record: att(4, T - 10) },
      { kind: 'event', at: T, record: ev(1, T) },
      { kind: 'event', at: null, record: { note: 'no time' } },
      { kind: 'event', at: null, record: { occurred_at: T } },
      { kind: 'event', at: null, record: 'odd' },
      { kind: 'attempt', at: null, record: { outcome: 0 } },
      { kind: 'attempt', at: null, record: { time_attempt: 1.5, outcome: 0 } },
    ]);
  });

  it('an empty history is an empty timeline', () => {
    expect(buildTimeline([], [])).toEqual([]);
  });
});

describe('entries', () => {
  const [delivered, elsewhere, failed, refused, unknown, untimed, event] = [
    ...buildTimeline([], [att(0, T), att(2, T + 1), att(1, T + 2), att(3, T + 3), att(9, T + 4)]),
    { kind: 'attempt', at: null, record: { outcome: 0 } } as TimelineEntry,
    ...buildTimeline([ev(3, T)], []),
  ] as TimelineEntry[];

  it('outcomes 0 and 2 deliver; any other outcome of a timed attempt is a failed attempt', () => {
    expect([delivered, elsewhere, failed, refused, unknown, untimed, event].map((e) => [isDelivery(e as TimelineEntry), isFailedAttempt(e as TimelineEntry)])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [false, true],
      [false, true],
      [false, false],
      [false, false],
    ]);
  });

  it('JSON form: kind and at first and always ours; a record that is not an object goes under value', () => {
    expect(entryJson({ kind: 'event', at: T, record: { status: 1, occurred_at: T, at: 'x', kind: 'y' } })).toEqual({ kind: 'event', at: T, status: 1, occurred_at: T });
    expect(Object.keys(entryJson({ kind: 'attempt', at: T, record: { outcome: 0, time_attempt: T } }))).toEqual(['kind', 'at', 'outcome', 'time_attempt']);
    expect(entryJson({ kind: 'event', at: null, record: 7 })).toEqual({ kind: 'event', at: null, value: 7 });
  });

  it('latest is the last timed entry; the state of a parcel names it', () => {
    const timeline = buildTimeline([ev(2, T)], [att(1, T + 5), { no: 'time' }]);
    expect(latestEntry(timeline)?.record).toEqual(att(1, T + 5));
    expect(latestEntry([])).toBeUndefined();
    expect(parcelState('p', { entry_id: 'p' }, timeline)).toEqual({ entry_id: 'p', parcel: { entry_id: 'p' }, latest: { kind: 'attempt', at: T + 5, outcome: 1, time_attempt: T + 5 }, delivered: false });
    expect(parcelState('p', null, buildTimeline([], [att(2, T)])).delivered).toBe(true);
  });
});

describe('takeNew', () => {
  it('returns what was not seen before, counting identical records', () => {
    const seen = new Map<string, number>();
    const one = buildTimeline([ev(1, T)], []);
    expect(takeNew(seen, one)).toEqual(one);
    expect(takeNew(seen, one)).toEqual([]);
    const twice = buildTimeline([ev(1, T), ev(1, T)], [att(1, T + 1)]);
    expect(takeNew(seen, twice)).toEqual(twice.slice(1));
    expect(takeNew(seen, twice)).toEqual([]);
    // The same content as an attempt is another entry.
    expect(takeNew(seen, [{ kind: 'attempt', at: null, record: ev(1, T) }])).toHaveLength(1);
  });
});

describe('timeline view', () => {
  const ctx: FormatContext = { now: T + 3600, colour: false };

  it('one line per entry: time, age, entry, status or outcome name, reason name, delivered address', () => {
    const [event, failed, delivered, generic] = buildTimeline(
      [ev(2, T)],
      [
        att(1, T + 60, { attempt_no: 1, reason: 1 }),
        att(2, T + 120, { attempt_no: 2, reason: 0, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12' } }),
        { odd: 'record\u001b[31m' },
      ],
    ) as TimelineEntry[];
    expect(timelineCells(event as TimelineEntry, ctx)).toEqual(['2023-11-14T22:13:20Z', '1h ago', 'event', '2 in_transit', '', '']);
    expect(timelineCells(failed as TimelineEntry, ctx)).toEqual(['2023-11-14T22:14:20Z', '59m ago', 'attempt 1', '1 failed', '1 not_at_home', '']);
    expect(timelineCells(delivered as TimelineEntry, ctx)).toEqual(['2023-11-14T22:15:20Z', '58m ago', 'attempt 2', '2 delivered_elsewhere', '', '12, 1234AB, NL']);
    expect(timelineCells(generic as TimelineEntry, ctx)).toEqual(['', '', 'attempt', '{"odd":"record\\u001b[31m"}', '', '']);
  });

  it('names come from the reference when known, else the spec, else the bare number', () => {
    const [a, b] = buildTimeline([ev(5, T)], [att(4, T + 1, { reason: 42 })]) as TimelineEntry[];
    const named = { ...ctx, names: { status: { 5: 'not_delivered' }, outcome: { 4: 'later' } } };
    expect(timelineCells(a as TimelineEntry, named)[3]).toBe('5 not_delivered');
    expect(timelineCells(b as TimelineEntry, named).slice(3, 5)).toEqual(['4 later', '42']);
    expect(timelineCells(a as TimelineEntry, ctx)[3]).toBe('5');
  });

  it('delivered addresses read like an address; control characters never reach the terminal', () => {
    expect(
      deliveredAddress({
        delivered_country: 'NL',
        delivered_postal_code: '1234AB',
        delivered_number: '12',
        delivered_addition: 'A',
        delivered_street: 'Dorpsstraat',
        delivered_city: 'Utrecht',
        delivered_location_type: 2,
      }),
    ).toBe('Dorpsstraat 12 A, 1234AB Utrecht, NL');
    expect(deliveredAddress({ delivered_city: 'Ut\u001b]0;x\u0007recht', delivered_country: 'NL' })).toBe('Ut]0;xrecht, NL');
    expect(deliveredAddress(null)).toBe('');
    expect(deliveredAddress('NL')).toBe('');
  });

  it('summaries and state rows', () => {
    const timeline = buildTimeline([ev(2, T)], [att(1, T + 60, { attempt_no: 3, reason: 8 })]);
    expect(entrySummary(timeline[0] as TimelineEntry, ctx)).toBe('event: 2 in_transit');
    expect(entrySummary(timeline[1] as TimelineEntry, ctx)).toBe('attempt 3: 1 failed (8 weather)');
    expect(stateItem('p', { status: 5 }, timeline, { now: T })).toEqual({
      entry_id: 'p',
      status: 5,
      latest_at: T + 60,
      latest: 'attempt 3: 1 failed (8 weather)',
      delivered_to: undefined,
      delivered: false,
    });
    expect(stateItem('q', 'not a record', [], { now: T })).toEqual({ entry_id: 'q', status: undefined, latest_at: null, latest: null, delivered_to: undefined, delivered: false });
  });
});

describe('track ids and hosts', () => {
  const A = '0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21';
  const B = '1c1d7b63-9a2f-4d4e-8b8c-3f6a7e5d4c32';

  it('--from takes ids one per line or NDJSON objects with entry_id, skipping blank lines', () => {
    expect(idsFromLines(`${A}\n\n  ${B}  \r\n{"entry_id":"${A}","status":2}\n`)).toEqual([A, B, A]);
    expect(idsFromLines('')).toEqual([]);
  });

  it('--from names the line it cannot read', () => {
    expect(() => idsFromLines(`${A}\nnot-an-id\n`)).toThrow(`--from line 2 must be a parcel id (a UUID) or a JSON object`);
    expect(() => idsFromLines('{"entry_id": 12}')).toThrow('--from line 1 has no entry_id that is a parcel id (a UUID)');
    expect(() => idsFromLines('{oops')).toThrow(/^--from line 1 is not valid JSON \(/);
  });

  it('loopback hosts are this machine', () => {
    expect(['http://127.0.0.1:8787', 'http://localhost', 'http://[::1]:9000', 'https://127.1.2.3/api'].map(isLoopbackUrl)).toEqual([true, true, true, true]);
    expect(['https://api.example.com', 'http://10.0.0.1', 'nonsense', undefined].map(isLoopbackUrl)).toEqual([false, false, false, false]);
  });
});

