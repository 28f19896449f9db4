import { statSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openKnownIds } from '../../src/config/known-ids.js';
import { knownIdsPath } from '../../src/config/paths.js';
import { formatCell, isTimestampField } from '../../src/io/format.js';
import { displayZone } from '../../src/io/time.js';
import { zonedIso } from '../../src/schemas/time-text.js';
import { renderList, renderTrace } from '../../src/io/render.js';
import { idOf } from '../../src/io/views/ids.js';
import { chooseLayout } from '../../src/io/views/layout.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

const NOW = 1_795_377_467; // 2026-11-22T19:57:47Z
const PARCEL = { entry_id: 'p-1', status: 4, courier: 'C', postal_code: '1234AB', number: '10', addition: null, created_at: NOW - 60 };

describe('chooseLayout', () => {
  const headers = (items: unknown[], opts: Parameters<typeof chooseLayout>[1]): string[] => chooseLayout(items, opts).columns.map((c) => c.header);

  it('the parcels view when the items have entry_id; the generic view otherwise', () => {
    expect(headers([PARCEL], { view: 'parcels' })).toEqual(['ID', 'STATUS', 'COURIER', 'ADDRESS', 'AGE']);
    expect(headers([{ code: 'X', label: 'y' }], { view: 'parcels' })).toEqual(['code', 'label']);
  });

  it('leaves out view columns no item has, and falls back when fewer than two remain', () => {
    expect(headers([{ entry_id: 'p-1', status: 1 }], { view: 'parcels' })).toEqual(['ID', 'STATUS']);
    expect(headers([{ entry_id: 'p-1', weird: 1 }], { view: 'parcels' })).toEqual(['entry_id', 'weird']);
  });

  it('-o wide: every field, empty ones too; --fields: exactly those', () => {
    expect(headers([PARCEL], { view: 'parcels', wide: true })).toEqual(['entry_id', 'status', 'courier', 'postal_code', 'number', 'addition', 'created_at']);
    expect(headers([PARCEL], { view: 'parcels', fields: ['number', 'nope'] })).toEqual(['number', 'nope']);
  });

  it('a child list does not repeat its parent id', () => {
    const events = [
      { event_id: 'e1', entry_id: 'p-1', status: 2 },
      { event_id: 'e2', entry_id: 'p-1', status: 3 },
    ];
    expect(headers(events, { wide: true, parentId: 'p-1' })).toEqual(['event_id', 'status']);
  });

  it('decides on raw values: a "-" text is data, null is not (colour cannot change the choice)', () => {
    expect(headers([{ id: 'a', dash: '-', none: null }], {})).toEqual(['id', 'dash']);
  });
});

describe('times', () => {
  it('every timestamp field, including `at`', () => {
    for (const f of ['at', 'created_at', 'time_attempt', 'time_event', 'x.at']) expect(isTimestampField(f)).toBe(true);
    for (const f of ['attempts', 'status', 'format']) expect(isTimestampField(f)).toBe(false);
  });

  it('in the given zone, Z for UTC; TZ respected, --utc wins, an unknown TZ falls back', () => {
    expect(zonedIso(NOW, 'Europe/Amsterdam')).toBe('2026-11-22T20:57:47+01:00');
    expect(zonedIso(NOW, 'America/New_York')).toBe('2026-11-22T14:57:47-05:00');
    expect(zonedIso(NOW, 'UTC')).toBe('2026-11-22T19:57:47Z');
    expect(displayZone({ TZ: 'Asia/Tokyo' }, false)).toBe('Asia/Tokyo');
    expect(displayZone({ TZ: 'Asia/Tokyo' }, true)).toBe('UTC');
    expect(displayZone({ TZ: 'Not/AZone' }, false)).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(formatCell('at', NOW - 120, { now: NOW, colour: false, tty: true, timeZone: 'Asia/Tokyo' })).toBe('2026-11-23T04:55:47+09:00 (2m ago)');
  });
});

describe('status colours', () => {
  const names = { status: { 4: 'delivered', 5: 'not_delivered' } };
  it('delivered green, not delivered red, others plain; none without colour', () => {
    expect(formatCell('status', 4, { now: NOW, colour: true, names })).toBe('\u001b[32m4 delivered\u001b[39m');
    expect(formatCell('status', 5, { now: NOW, colour: true, names })).toBe('\u001b[31m5 not_delivered\u001b[39m');
    expect(formatCell('status', 2, { now: NOW, colour: true, names })).toBe('2 in_transit');
    expect(formatCell('status', 4, { now: NOW, colour: false, names })).toBe('4 delivered');
  });

  it('the same columns with colour on and off on a terminal', async () => {
    const outputs: string[] = [];
    for (const colour of [true, false]) {
      const c = captureIO({ tty: true, colour, columns: 80 });
      await renderList(c.io, [PARCEL, { ...PARCEL, entry_id: 'p-2', status: 0 }], { format: 'table', now: NOW, names, view: 'parcels' });
      outputs.push(stripVTControlCharacters(c.stdout()));
    }
    expect(outputs[0]).toBe(outputs[1]);
    expect(outputs[1]).toBe('ID   STATUS      COURIER  ADDRESS    AGE\np-1  delivered   C        1234AB 10  1m ago\np-2  registered  C        1234AB 10  1m ago\n');
  });
});

describe('idOf (what --quiet prints)', () => {
  it("the view's id field, else entry_id, id, *_id, code; never the parent's id", () => {
    expect(idOf({ event_id: 'e1', entry_id: 'p-1' }, { view: 'events', parentId: 'p-1' })).toBe('e1');
    expect(idOf({ entry_id: 'p-1', status: 2 })).toBe('p-1');
    expect(idOf({ code: 'A-BIKE', name: 'A' })).toBe('A-BIKE');
    expect(idOf({ entry_id: 'p-1', other_id: 'o' }, { parentId: 'p-1' })).toBe('o');
    expect(idOf({ total: 3 })).toBeUndefined();
  });
});

describe('known ids', () => {
  it('keeps the most recent ones, moving a seen id to the end', async () => {
    const known = openKnownIds({ PARCELS_CONFIG_DIR: tempConfigDir() }, 'api-test', 3);
    await known.remember(['a', 'b', 'c']);
    await known.remember(['a', 'd']);
    expect(await known.all()).toEqual(['c', 'a', 'd']);
  });

  it('showing the newest ids again writes nothing (the file keeps its inode)', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const known = openKnownIds(env, 'api-test', 3);
    await known.remember(['a', 'b']);
    const before = statSync(knownIdsPath(env, 'api-test')).ino;
    await known.remember(['b']);
    expect(statSync(knownIdsPath(env, 'api-test')).ino).toBe(before);
    await known.remember(['a']);
    expect(statSync(knownIdsPath(env, 'api-test')).ino).not.toBe(before);
    expect(await known.all()).toEqual(['b', 'a']);
  });
});

describe('renderTrace', () => {
  it('removes C0/C1 controls a server put in a header or body', async () => {
    const c = captureIO();
    renderTrace(c.io, '< x-echo: a\u009b2J\u001b]0;t\u0007b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(c.stderr()).toBe('< x-echo: a2J]0;tb\n');
  });
});

describe('nested records on a terminal', () => {
  it('-o wide and the generic view give each nested field its own column, not a JSON blob', () => {
    const attempts = [
      { attempt_no: 1, delivered: null },
      { attempt_no: 2, delivered: { delivered_country: 'NL', delivered_number: '12' } },
    ];
    expect(chooseLayout(attempts, { wide: true }).columns.map((c) => c.header)).toEqual([
      'attempt_no',
      'delivered.delivered_country',
      'delivered.delivered_number',
    ]);
  });
});

describe('one clock for the times the sandbox and the outbox write as ISO text', () => {
  it('on a terminal in the display zone with its age; piped as it came', () => {
    const iso = '2026-11-22T19:55:47.123Z';
    expect(formatCell('captured_at', iso, { now: NOW, colour: false, tty: true, timeZone: 'Europe/Amsterdam' })).toBe('2026-11-22T20:55:47+01:00 (2m ago)');
    expect(formatCell('captured_at', iso, { now: NOW, colour: false, tty: false })).toBe(iso);
    expect(formatCell('note', 'not 2026-11-22T19:55:47Z', { now: NOW, colour: false, tty: true, timeZone: 'UTC' })).toBe('not 2026-11-22T19:55:47Z');
  });
});

describe('the batches and outbox views at a terminal', () => {
  const BATCH = `create-${'7'.repeat(64)}`;
  const batches = [{ batch: BATCH, input: '/home/op/parcels/monday.csv', done: 12, failed: 1, invalid: 0, cancelled: 2, queued: 0, age: '3m' }];

  it('a 71-character batch id stays whole; at 100 columns the input path goes whole, at 200 all show; a count column only when some batch has some', async () => {
    const wide = captureIO({ tty: true, columns: 200 });
    await renderList(wide.io, batches, { format: 'table', now: NOW, view: 'batches' });
    expect(wide.stdout()).toBe(
      `BATCH${' '.repeat(BATCH.length - 5)}  INPUT                        DONE  FAILED  CANCELLED  AGE\n` +
        `${BATCH}  /home/op/parcels/monday.csv  12    1       2          3m\n`,
    );
    const narrow = captureIO({ tty: true, columns: 100 });
    await renderList(narrow.io, batches, { format: 'table', now: NOW, view: 'batches' });
    expect(narrow.stdout()).toBe(`BATCH${' '.repeat(BATCH.length - 5)}  DONE  FAILED  CANCELLED\n${BATCH}  12    1       2\n`);
    expect(narrow.stderr()).toBe('Not shown at 100 columns: INPUT, AGE (widen the terminal, or use -o wide or --json)\n');
  });

  it('a QUEUED column only when a batch has lines waiting in the outbox', async () => {
    const queued = [{ batch: 'aaaa', input: '/p.csv', done: 0, queued: 12, age: '1m' }, { batch: 'bbbb', input: '/q.csv', done: 3, queued: 0, age: '2m' }];
    const out = captureIO({ tty: true, columns: 120 });
    await renderList(out.io, queued, { format: 'table', now: NOW, view: 'batches' });
    expect(out.stdout()).toBe('BATCH  INPUT   DONE  QUEUED  AGE\naaaa   /p.csv  0     12      1m\nbbbb   /q.csv  3     0       2m\n');
    const none = captureIO({ tty: true, columns: 120 });
    await renderList(none.io, queued.map((b) => ({ ...b, queued: 0 })), { format: 'table', now: NOW, view: 'batches' });
    expect(none.stdout()).toBe('BATCH  INPUT   DONE  AGE\naaaa   /p.csv  0     1m\nbbbb   /q.csv  3     2m\n');
  });

  it('the outbox: what each entry carries and its state, whole at 100 columns; the capture time in the display zone when there is room', async () => {
    const create = { seq: 1, age: 120, captured_at: '2026-11-22T19:55:47.000Z', command: 'create', parcel: null, what: 'DEMO-BIKE 1234AB 99', state: 'waiting' };
    const event = { seq: 2, age: 61, captured_at: '2026-11-22T19:56:46.000Z', command: 'events add', parcel: '0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21', what: 'status picked_up', state: 'waiting' };
    const c = captureIO({ tty: true, columns: 100 });
    c.io.timeZone = 'Europe/Amsterdam';
    await renderList(c.io, [create, event], { format: 'table', now: NOW, view: 'outbox' });
    expect(c.stdout()).toBe(
      'SEQ  AGE  COMMAND     PARCEL                                WHAT                 STATE\n' +
        '1    2m   create      -                                     DEMO-BIKE 1234AB 99  waiting\n' +
        '2    1m   events add  0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21  status picked_up     waiting\n',
    );
    expect(c.stderr()).toBe('Not shown at 100 columns: CAPTURED (widen the terminal, or use -o wide or --json)\n');
    // After a flush: the rejected entry still says what it was.
    const wide = captureIO({ tty: true, columns: 200 });
    wide.io.timeZone = 'Europe/Amsterdam';
    await renderList(wide.io, [create, { ...event, state: 'rejected 409 parcel_delivered' }], { format: 'table', now: NOW, view: 'outbox' });
    expect(wide.stdout().split('\n')[2]).toBe('2    1m   today 20:56  events add  0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21  status picked_up     rejected 409 parcel_delivered');
  });
});
