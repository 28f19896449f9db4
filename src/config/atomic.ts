import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isSymlinkSync, openOwnFile, SymlinkError } from './own-file.js';

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

export interface WriteOptions {
  /**
   * false for a cache whose loss costs nothing but a lookup (known ids, code names, the clock skew):
   * no fsync of the file or of its directory. The rename still shows every reader the old file or
   * the new one; only a power cut may lose the write (readers take a damaged cache for none). The
   * two fsyncs are most of a one-shot `create`'s file work. Default true.
   */
  durable?: boolean;
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

/** A fresh name beside the file being written: created exclusively ('wx'), so nothing there is ever followed. */
function tempName(dir: string, name: string): string {
  return join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * A file written whole from code that cannot wait (a journal's compaction under its lock) or whose
 * name is known only once it is written (a spool file is named by its content's hash): the bytes go
 * to a fresh temp file (0600) in `dir`, and `commit` renames it over its name, as writeFileAtomic
 * does; `discard` removes it.
 */
export class WholeFileWriter {
  private open = true;

  private constructor(
    private readonly dir: string,
    private readonly temp: string,
    private readonly fd: number,
  ) {}

  /** `name` only names the temp file (`.name.pid.random.tmp`); the directory is created (0700) when missing. */
  static create(dir: string, name: string): WholeFileWriter {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = tempName(dir, name);
    return new WholeFileWriter(dir, temp, openSync(temp, 'wx', 0o600));
  }

  write(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
  }

  /** Renames the file over `path` (refused when `path` is a symbolic link). Durable (default): fsync'd first, and the directory after. */
  commit(path: string, { durable = true }: WriteOptions = {}): void {
    try {
      if (durable) fdatasyncSync(this.fd);
      this.close();
      if (isSymlinkSync(path)) throw new SymlinkError(path);
      renameSync(this.temp, path);
    } catch (error) {
      this.discard();
      throw error;
    }
    if (durable) syncDirSync(this.dir);
  }

  discard(): void {
    this.close();
    rmSync(this.temp, { force: true });
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
  }
}

/** writeFileAtomic for code that cannot wait: the same temp file, fsync and rename. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const writer = WholeFileWriter.create(dirname(path), basename(path));
  try {
    writer.write(data);
  } catch (error) {
    writer.discard();
    throw error;
  }
  writer.commit(path, options);
}

function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // As syncDir: best effort.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
