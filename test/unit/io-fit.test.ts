import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import { promptHidden } from '../../src/io/prompt.js';
import { renderList } from '../../src/io/render.js';
import { columnWidths, fitColumns } from '../../src/io/table.js';
import { chooseLayout } from '../../src/io/views/layout.js';
import { captureIO } from '../helpers/io.js';

describe('fitColumns', () => {
  it('drops columns empty in every row and keeps what fits, at least one', () => {
    // Emptiness is judged on the raw values (chooseLayout), widths on the cells (fitColumns).
    const items = [
      { id: 'a1', empty: '', status: 'ok', long: 'x'.repeat(50) },
      { id: 'a2', empty: null, status: 'ok', long: 'y' },
    ];
    const layout = chooseLayout(items, {});
    expect(layout.columns.map((c) => c.header)).toEqual(['id', 'status', 'long']);
    expect(layout.fit).toBe('drop');
    const natural = columnWidths(['id', 'status', 'long'], [['a1', 'ok', 'x'.repeat(50)]]);
    const ids = layout.columns.map((c) => c.id);
    expect(fitColumns(natural, ids, 80, 'drop')).toEqual([0, 1, 2]);
    expect(fitColumns(natural, ids, 20, 'drop')).toEqual([0, 1]);
    expect(fitColumns(natural, ids, 1, 'drop')).toEqual([0]);
  });
});

describe('TTY list tables', () => {
  it('show the columns that fit and name the left-out ones on stderr', async () => {
    const c = captureIO({ tty: true, columns: 30 });
    const items = [{ entry_id: 'p-1', note: null, status: 1, description: 'a fairly long description here' }];
    await renderList(c.io, items, { format: 'table', now: 0 });
    expect(c.stdout()).toBe('entry_id  status\np-1       1 picked_up\n');
    expect(c.stderr()).toBe('Not shown for width: description (pick columns with --fields, or use --output json)\n');
  });

  it('keep every column when piped, so scripts see a stable shape', async () => {
    const c = captureIO({ tty: false });
    await renderList(c.io, [{ entry_id: 'p-1', note: null }], { format: 'table', now: 0 });
    expect(c.stdout()).toBe('entry_id\tnote\np-1\t\n');
    expect(c.stderr()).toBe('');
  });
});

/** A stand-in terminal for stdin: raw mode is recorded, keystrokes are pushed by the test. */
function fakeTerminal(): PassThrough & { isRaw: boolean; setRawMode(on: boolean): void } {
  const stream = new PassThrough() as PassThrough & { isRaw: boolean; setRawMode(on: boolean): void };
  stream.isRaw = false;
  stream.setRawMode = (on: boolean) => {
    stream.isRaw = on;
  };
  return stream;
}

describe('promptHidden', () => {
  it('reads a line without echoing it, honours backspace, and restores the terminal', async () => {
    const c = captureIO({ tty: true });
    const stdin = fakeTerminal();
    const answer = promptHidden({ ...c.io, stdin }, 'API key: ');
    stdin.write('secrx\u007fet\r');
    await expect(answer).resolves.toBe('secret');
    expect(stdin.isRaw).toBe(false);
    expect(c.stderr()).toBe('API key: \n');
    expect(c.stdout()).toBe('');
  });

  it('Ctrl-C cancels', async () => {
    const c = captureIO({ tty: true });
    const stdin = fakeTerminal();
    const answer = promptHidden({ ...c.io, stdin }, 'API key: ');
    stdin.write('abc\u0003');
    await expect(answer).rejects.toBeInstanceOf(CancelledError);
  });
});
