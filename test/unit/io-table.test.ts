import { describe, expect, it } from 'vitest';
import { columnWidths, displayWidth, renderTable } from '../../src/io/table.js';

const headers = ['entry_id', 'status', 'city'];
const rows = [
  ['a1', '2 in_transit', 'Amsterdam'],
  ['b2', '0 registered', ''],
];

describe('renderTable', () => {
  it('TTY: aligned, borderless, no trailing spaces', () => {
    expect(renderTable(headers, rows, { tty: true, colour: false })).toBe(
      'entry_id  status        city\n' + 'a1        2 in_transit  Amsterdam\n' + 'b2        0 registered\n',
    );
  });
  it('TTY with colour: bold headers', () => {
    const out = renderTable(headers, rows, { tty: true, colour: true });
    expect(out.split('\n')[0]).toBe('\u001b[1mentry_id\u001b[22m  \u001b[1mstatus\u001b[22m        \u001b[1mcity\u001b[22m');
    expect(out.split('\n')[1]).toBe('a1        2 in_transit  Amsterdam');
  });
  it('TTY: fits the terminal by truncating the widest column', () => {
    const out = renderTable(headers, [['a1', '2 in_transit', 'Amsterdam long long long name here']], {
      tty: true,
      colour: false,
      columns: 40,
    });
    expect(out).toBe('entry_id  status        city\n' + 'a1        2 in_transit  Amsterdam long …\n');
    for (const line of out.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });
  it('TTY: cells with tabs and newlines stay on one line', () => {
    expect(renderTable(['a', 'b'], [['x\ty', 'p\nq']], { tty: true, colour: false })).toBe('a    b\nx y  p q\n');
  });
  it('TTY: fixed widths and no header (later batches of a stream)', () => {
    expect(renderTable(headers, [['abcdef', 'x', 'y']], { tty: true, colour: false, widths: [4, 3, 3], header: false })).toBe(
      'abc…  x    y\n',
    );
  });
  it('non-TTY: tab-separated with a header line, no colour even if asked', () => {
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
    expect(columnWidths(['h'], [['日本語']])).toEqual([6]);
  });
});
