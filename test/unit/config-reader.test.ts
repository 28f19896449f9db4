import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readerFileName, readerOf } from '../../src/config/reader.js';

/** A fake /proc: `self` in session `session` on terminal `tty`, and the session leader's start time. */
function fakeProc(opts: { tty: string; session: string; leaderStart?: string; comm?: string }): string {
  const root = mkdtempSync(join(tmpdir(), 'parcels-proc-'));
  const stat = (pid: string, start: string): string =>
    // pid (comm) state ppid pgrp session tty_nr tpgid flags … starttime is field 22.
    `${pid} (${opts.comm ?? 'node'}) S 1 ${opts.session} ${opts.session} ${opts.tty} 0 0 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0 0\n`;
  mkdirSync(join(root, 'self'));
  writeFileSync(join(root, 'self', 'stat'), stat('4242', '999'));
  if (opts.leaderStart !== undefined) {
    mkdirSync(join(root, opts.session));
    writeFileSync(join(root, opts.session, 'stat'), stat(opts.session, opts.leaderStart));
  }
  return root;
}

describe('readerOf: who read a parcel, for the ETag a patch sends', () => {
  it('$PARCELS_SESSION wins over the terminal', () => {
    const proc = fakeProc({ tty: '34816', session: '100', leaderStart: '5000' });
    expect(readerOf({ PARCELS_SESSION: 'nightly-job' }, proc)).toBe('session:nightly-job');
  });

  it('on a terminal: the terminal, the session and its leader\'s start time', () => {
    expect(readerOf({}, fakeProc({ tty: '34816', session: '100', leaderStart: '5000' }))).toBe('tty:34816:100:5000');
  });

  it('a new terminal on a reused pts and a recycled session id inherits nothing (the leader started later)', () => {
    const first = readerOf({}, fakeProc({ tty: '34816', session: '100', leaderStart: '5000' }));
    const reused = readerOf({}, fakeProc({ tty: '34816', session: '100', leaderStart: '7300' }));
    expect(reused).not.toBe(first);
    expect(readerFileName(reused ?? '')).not.toBe(readerFileName(first ?? ''));
  });

  it('a command name with spaces and parentheses does not shift the fields', () => {
    expect(readerOf({}, fakeProc({ comm: 'a b) (c', tty: '34817', session: '200', leaderStart: '6000' }))).toBe('tty:34817:200:6000');
  });

  it('no terminal, an empty PARCELS_SESSION, an unreadable leader or no /proc: no reader (the per-user cache serves)', () => {
    expect(readerOf({}, fakeProc({ tty: '0', session: '100', leaderStart: '5000' }))).toBeUndefined();
    expect(readerOf({ PARCELS_SESSION: '' }, fakeProc({ tty: '0', session: '100', leaderStart: '5000' }))).toBeUndefined();
    expect(readerOf({}, fakeProc({ tty: '34816', session: '100' }))).toBeUndefined();
    expect(readerOf({}, join(tmpdir(), 'no-such-proc'))).toBeUndefined();
  });
});
