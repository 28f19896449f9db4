import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, fitTable, naturalWidths, renderTable } from '../../src/io/table.js';

const headers = ['entry_id', 'status', 'city'];
const rows = [
  ['a1', '2 in_transit', 'Amsterdam'],
  ['b2', '0 registered', ''],
];

describe('renderTable', () => {
  it('TTY: aligned, borderless, headers in capitals, no trailing spaces', () => {
    expect(renderTable(headers, rows, { tty: true, colour: false })).toBe(
      'ENTRY_ID  STATUS        CITY\n' + 'a1        2 in_transit  Amsterdam\n' + 'b2        0 registered\n',
    );
  });
  it('TTY with colour: bold headers', () => {
    const out = renderTable(headers, rows, { tty: true, colour: true });
    expect(out.split('\n')[0]).toBe('\u001b[1mENTRY_ID\u001b[22m  \u001b[1mSTATUS\u001b[22m        \u001b[1mCITY\u001b[22m');
    expect(out.split('\n')[1]).toBe('a1        2 in_transit  Amsterdam');
  });
  it('TTY: a free-text column is cut to its width with …; other columns stay whole', () => {
    const out = renderTable(headers, [['a1', '2 in_transit', 'Amsterdam long long long name here']], { tty: true, colour: false, widths: [8, 12, 15], text: [false, false, true] });
    expect(out).toBe('ENTRY_ID  STATUS        CITY\n' + 'a1        2 in_transit  Amsterdam long…\n');
    const whole = renderTable(headers, [['a1', '2 in_transit', 'x']], { tty: true, colour: false, widths: [8, 4, 4] });
    expect(whole).toBe('ENTRY_ID  STATUS  CITY\na1        2 in_transit  x\n');
  });
  it('TTY: cells with tabs and newlines stay on one line', () => {
    expect(renderTable(['a', 'b'], [['x\ty', 'p\nq']], { tty: true, colour: false })).toBe('A    B\nx y  p q\n');
  });
  it('non-TTY: tab-separated with a header line as the field names, no colour even if asked', () => {
    expect(renderTable(headers, rows, { tty: false, colour: true })).toBe(
      'entry_id\tstatus\tcity\n' + 'a1\t2 in_transit\tAmsterdam\n' + 'b2\t0 registered\t\n',
    );
  });
  it('non-TTY: tabs and newlines in cells become spaces', () => {
    expect(renderTable(['a', 'b'], [['x\ty', 'p\r\nq\nr']], { tty: false, colour: false })).toBe('a\tb\nx y\tp q r\n');
  });
  it('measures wide characters and ignores ANSI', () => {
    expect(displayWidth('\u001b[1mab\u001b[22m')).toBe(2);
    expect(displayWidth('日本')).toBe(4);
    expect(naturalWidths(['h'], [['日本語']])).toEqual([6]);
  });
});

describe('cutToWidth', () => {
  it('cuts plain text with …, and a styled cell ends with a reset so its style never runs on', () => {
    expect(cutToWidth('Amsterdam', 20)).toBe('Amsterdam');
    expect(cutToWidth('Amsterdam', 5)).toBe('Amst…');
    expect(cutToWidth('\u001b[2mAmsterdam\u001b[22m', 5)).toBe('\u001b[2mAmst…\u001b[0m');
    expect(cutToWidth('日本語の住所', 5)).toBe('日本…');
  });
});

describe('fitTable', () => {
  const fits = [
    { priority: Number.POSITIVE_INFINITY, text: false },
    { priority: 50, text: false },
    { priority: 10, text: true },
    { priority: 20, text: false },
  ];
  it('keeps every column at its natural width when they fit', () => {
    expect(fitTable([36, 10, 30, 6], fits, 200)).toEqual({ kept: [0, 1, 2, 3], widths: [36, 10, 30, 6], dropped: [] });
  });
  it('shortens only free text, never below its minimum', () => {
    expect(fitTable([36, 10, 30, 6], fits, 80)).toEqual({ kept: [0, 1, 2, 3], widths: [36, 10, 22, 6], dropped: [] });
  });
  it('leaves out whole columns, lowest priority first, before cutting a name; ids never go', () => {
    expect(fitTable([36, 10, 30, 6], fits, 60)).toEqual({ kept: [0, 1, 3], widths: [36, 10, 6], dropped: [2] });
    expect(fitTable([36, 10, 30, 6], fits, 50)).toEqual({ kept: [0, 1], widths: [36, 10], dropped: [2, 3] });
    expect(fitTable([36, 10, 30, 6], fits, 20)).toEqual({ kept: [0], widths: [36], dropped: [1, 2, 3] });
  });
});
