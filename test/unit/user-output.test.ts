/** src/config/user-output.ts: what `sandbox serve --url-file` / `--log-file` write to, and how. */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { SymlinkError } from '../../src/config/own-file.js';
import { openUserOutput, writeUserFile } from '../../src/config/user-output.js';
import { tempConfigDir } from '../helpers/cli.js';

describe('writeUserFile', () => {
  it('replaces a regular file whole (0600), and makes a missing one', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'url');
    writeFileSync(file, 'an older, longer URL than the new one\n');
    await writeUserFile(file, 'http://127.0.0.1:1\n');
    expect(readFileSync(file, 'utf8')).toBe('http://127.0.0.1:1\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('follows a link to a terminal or a FIFO (as /dev/stdout and >(…) are), writing as > would', async () => {
    const dir = tempConfigDir();
    const toDevice = join(dir, 'null');
    symlinkSync('/dev/null', toDevice);
    await writeUserFile(toDevice, 'gone\n');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const toFifo = join(dir, 'pipe-link');
    symlinkSync(fifo, toFifo);
    const read = text(createReadStream(fifo, 'utf8'));
    await writeUserFile(toFifo, 'http://127.0.0.1:2\n');
    expect(await read).toBe('http://127.0.0.1:2\n');
  });

  it('refuses a link to a regular file, the target untouched', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'target');
    writeFileSync(target, 'mine\n');
    const link = join(dir, 'link');
    symlinkSync(target, link);
    await expect(writeUserFile(link, 'x')).rejects.toBeInstanceOf(SymlinkError);
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
  });
});

describe('openUserOutput', () => {
  it('empties a regular file and writes to it; a link to one is refused', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'log.ndjson');
    writeFileSync(file, 'old line\nold line\n');
    const stream = createWriteStream('', { fd: await openUserOutput(file) });
    stream.end('{"seq":1}\n');
    await finished(stream);
    expect(readFileSync(file, 'utf8')).toBe('{"seq":1}\n');
    const link = join(dir, 'link.ndjson');
    symlinkSync(file, link);
    await expect(openUserOutput(link)).rejects.toBeInstanceOf(SymlinkError);
    expect(readFileSync(file, 'utf8')).toBe('{"seq":1}\n');
  });
});
