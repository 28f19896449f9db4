import { randomBytes } from 'node:crypto';
import { constants, lstatSync, openSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';

/** A file we were asked to write is a symbolic link: writing would land in whatever it points at. */
export class SymlinkError extends UsageError {
  constructor(
    readonly path: string,
    /** What was refused: a file the CLI only reads (a journal being listed) is refused too. */
    doing: 'write through it' | 'read it' = 'write through it',
  ) {
    super(
      `${path} is a symbolic link; refusing to ${doing}`,
      undefined,
      'replace the link with a regular file (or point PARCELS_CONFIG_DIR at a directory of your own) and try again',
    );
  }
}

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

/** How a file of the CLI's own (a journal, a done file, a spool) is opened by `openOwnFile`. */
export type OwnFileMode = 'read' | 'append' | 'truncate';

const OWN_FILE_FLAGS: Readonly<Record<OwnFileMode, number>> = {
  read: constants.O_RDONLY,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
  truncate: constants.O_WRONLY | constants.O_TRUNC | constants.O_CREAT,
};

/**
 * Opens a file the CLI keeps for itself (journals, done files, the outbox, spools) without ever
 * following a symbolic link at `path`: O_NOFOLLOW makes the open itself fail on a link, so there is
 * no window between a check and the open. A link is a SymlinkError (exit 2) and its target is not
 * touched. Where the platform has no O_NOFOLLOW (Windows), the path is checked first instead.
 * Returns a file descriptor; a new file gets `mode`.
 */
export function openOwnFile(path: string, how: OwnFileMode, mode = 0o600): number {
  const doing = how === 'read' ? 'read it' : 'write through it';
  const noFollow = constants.O_NOFOLLOW as number | undefined;
  if (noFollow === undefined && isSymlinkSync(path)) throw new SymlinkError(path, doing);
  try {
    return openSync(path, OWN_FILE_FLAGS[how] | (noFollow ?? 0), mode);
  } catch (error) {
    // ELOOP (Linux, macOS) or EMLINK (FreeBSD): the last component is a link. ELOOP can also mean
    // a loop of directory links on the way: only a link at `path` itself is reported as one.
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ELOOP' || code === 'EMLINK') && isSymlinkSync(path)) throw new SymlinkError(path, doing);
    throw error;
  }
}

/** True when `path` exists as a symbolic link. */
export function isSymlinkSync(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
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
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
