/**
 * `sandbox serve --url-file` / `--log-file` with a symbolic link planted where the file goes (a
 * shared /tmp, a workspace another job wrote): the link's target is never written, the start fails
 * with exit 2 naming the flag, nothing reaches stdout and no sandbox is left listening or leaves its
 * token file behind. A directory there is refused the same way.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

/** Runs serve with `flags`; a serve that starts anyway (the code before the flags existed would not even parse them) is stopped and fails the test. */
async function serve(dir: string, flags: string[]): Promise<{ code: number | 'serving'; stdout: string; stderr: string }> {
  const env = { PARCELS_CONFIG_DIR: dir };
  const captured = captureIO({ env });
  const cancel = new AbortController();
  const code = run(['sandbox', 'serve', '--port', '0', '--db', ':memory:', ...flags], { io: captured.io, env, signal: cancel.signal });
  const outcome = await Promise.race([code, captured.until('stderr', 'Press Ctrl-C').then(() => 'serving' as const)]);
  if (outcome === 'serving') {
    cancel.abort('SIGTERM');
    await code;
  }
  return { code: outcome, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('sandbox serve never writes a user-named file through a link', () => {
  it('--url-file a link to a file: exit 2 after listening, the target untouched, the sandbox stopped and its token file gone', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'do not touch\n');
    const link = join(dir, 'sandbox.url');
    symlinkSync(target, link);
    const r = await serve(dir, ['--url-file', link]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: --url-file: ${link} is a symbolic link; refusing to write through it\nHint: name the file itself, not a link to it\n`);
    expect(readFileSync(target, 'utf8')).toBe('do not touch\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.token'))).toEqual([]);
  });

  it('--url-file a dangling link: refused, nothing made where it points', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'made-through-link.txt');
    const link = join(dir, 'sandbox.url');
    symlinkSync(target, link);
    const r = await serve(dir, ['--url-file', link]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: --url-file: ${link} is a symbolic link; refusing to write through it\n`);
    expect(existsSync(target)).toBe(false);
  });

  it('--log-file a link to a file: exit 2 before listening, the target neither emptied nor written', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'victim.log');
    writeFileSync(target, 'keep me\n');
    const link = join(dir, 'requests.ndjson');
    symlinkSync(target, link);
    const r = await serve(dir, ['--log-file', link]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: --log-file: ${link} is a symbolic link; refusing to write through it\nHint: name the file itself, not a link to it\n`);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  });

  it('--url-file or --log-file a directory: exit 2 naming it', async () => {
    const dir = tempConfigDir();
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    for (const flag of ['--url-file', '--log-file']) {
      const r = await serve(dir, [flag, folder]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Error: ${flag}: ${folder} is a directory; name a file, a FIFO or a terminal\n`);
    }
  });
});
