import { constants, mkdirSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { openOwnFile } from './own-file.js';

/**
 * Files the user names for the CLI to write (`sandbox serve --url-file`, `--log-file`). A missing
 * path or a regular file is written as the CLI writes its own files: never through a symbolic link
 * (SymlinkError, as atomic.ts and own-file.ts refuse one). A path that already exists as a FIFO or
 * a terminal (`>(…)`, /dev/stdout, /dev/stderr) is opened as a shell's `>` opens it, and followed
 * through a link to get there (/dev/stdout and `>(…)`'s /dev/fd/N are links): writing to a pipe or
 * a terminal overwrites no file. Anything else there (a directory, a block device, a socket) is refused.
 */

/** Something at a named path the CLI will not write to. */
export class UnwritableKindError extends Error {
  override readonly name = 'UnwritableKindError';
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`${path} is ${what}; name a file, a FIFO or a terminal`);
  }
}

/** What is at `path`, through links: a file to write (none yet, a dangling link, a regular file) or a stream (FIFO, terminal); any other kind is refused. */
function kindAt(path: string): 'file' | 'stream' {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'file';
    throw error;
  }
  if (stats.isFile()) return 'file';
  if (stats.isFIFO() || stats.isCharacterDevice()) return 'stream';
  throw new UnwritableKindError(path, stats.isDirectory() ? 'a directory' : stats.isBlockDevice() ? 'a block device' : stats.isSocket() ? 'a socket' : 'a special file');
}

/**
 * Opens a FIFO or terminal for writing, as `>` does: a FIFO's open waits for its reader (off the
 * event loop, in Node's thread pool). Nothing is created or truncated; what was opened must still be
 * a FIFO or terminal (the path may have changed since it was looked at).
 */
async function openStream(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_WRONLY | ((constants.O_NOCTTY as number | undefined) ?? 0));
  const stats = await handle.stat();
  if (stats.isFIFO() || stats.isCharacterDevice()) return handle;
  await handle.close();
  throw new UnwritableKindError(path, 'no longer a FIFO or a terminal');
}

/** Writes `text` to the path whole: a file through writeFileAtomic (a reader sees nothing or all of it), a FIFO or terminal as `>` would. */
export async function writeUserFile(path: string, text: string): Promise<void> {
  if (kindAt(path) === 'file') {
    await writeFileAtomic(path, text);
    return;
  }
  const handle = await openStream(path);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * Where to write a stream of lines (for fs.createWriteStream's `fd`): a file emptied (created 0600,
 * its directory 0700 when missing) through the one opener, or a FIFO or terminal opened as `>` would.
 */
export async function openUserOutput(path: string): Promise<number | FileHandle> {
  if (kindAt(path) === 'stream') return openStream(path);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return openOwnFile(path, 'truncate');
}
