import { closeSync, fchmodSync, fstatSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { openOwnFile, SymlinkError } from './own-file.js';
import { tempName, type WriteOptions } from './whole-file.js';

/**
 * Creates `dir` (and missing parents) with mode 0700. A directory that already exists is left as
 * it is: its mode belongs to whoever made it (it may be a link to a shared directory).
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Throws SymlinkError when `path` exists as a symbolic link; a missing path is fine. */
export async function refuseSymlink(path: string): Promise<void> {
  try {
    if ((await lstat(path)).isSymbolicLink()) throw new SymlinkError(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * A file others write in place (the sandbox's SQLite database, whose -wal and -shm files take its
 * mode): created empty (0600) when missing, its data kept, its mode tightened to 0600 when looser;
 * a link or anything not a regular file there is refused by the one opener.
 */
export function ensurePrivateFile(path: string): void {
  const fd = openOwnFile(path, 'update');
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/**
 * The one way files are written: a temp file in the same directory (mode 0600), fsync'd, then
 * renamed over `path`, so a reader sees the old file or the new one and a crash leaves no torn
 * file. Refuses when `path` is a symbolic link. The directory is created (0700) when missing.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | readonly Uint8Array[], { durable = true }: WriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  await ensurePrivateDir(dir);
  await refuseSymlink(path);
  const temp = tempName(dir, basename(path));
  try {
    // 'wx': the temp name is fresh, so an existing file (or link) there is never followed.
    const handle = await open(temp, 'wx', 0o600);
    try {
      // Several chunks (e.g. views of typed arrays) are written one after the other, never joined in memory first.
      for (const chunk of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) await handle.writeFile(chunk);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await syncDir(dir);
}

/** Makes the rename itself durable. Not every platform can open a directory (Windows cannot): best effort. */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // The data is already safe in the file; only the directory entry's durability is at stake.
  } finally {
    await handle?.close();
  }
}
