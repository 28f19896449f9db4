import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import { promptHidden } from '../../src/io/prompt.js';
import { renderList } from '../../src/io/render.js';
import { captureIO } from '../helpers/io.js';

describe('TTY list tables', () => {
  it('show the columns that fit and name the left-out ones on stderr', async () => {
    const c = captureIO({ tty: true, columns: 25 });
    const items = [{ entry_id: 'p-1', note: null, status: 1, description: 'a fairly long description here' }];
    await renderList(c.io, items, { format: 'table', now: 0 });
    expect(c.stdout()).toBe('ENTRY_ID  STATUS\np-1       picked_up\n');
    expect(c.stderr()).toBe('Not shown at 25 columns: description (widen the terminal, or use -o wide or --json)\n');
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

  it('turns echo off before the question shows: a key typed as soon as it appears is never echoed', async () => {
    const c = captureIO({ tty: true });
    const stdin = fakeTerminal();
    // Whether the terminal was raw (echo off) at each write to stderr: the question, then the line end.
    const rawAtWrite: boolean[] = [];
    const stderr = new Writable({
      write(_chunk, _encoding, done) {
        rawAtWrite.push(stdin.isRaw);
        done();
      },
    });
    const answer = promptHidden({ ...c.io, stdin, stderr }, 'API key: ');
    stdin.write('key\r');
    await expect(answer).resolves.toBe('key');
    expect(rawAtWrite).toEqual([true, false]);
  });

  it('Ctrl-C cancels', async () => {
    const c = captureIO({ tty: true });
    const stdin = fakeTerminal();
    const answer = promptHidden({ ...c.io, stdin }, 'API key: ');
    stdin.write('abc\u0003');
    await expect(answer).rejects.toBeInstanceOf(CancelledError);
  });
});
