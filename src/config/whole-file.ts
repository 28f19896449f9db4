import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isSymlinkSync, SymlinkError } from './own-file.js';

/**
 * Files written whole and synchronously, as src/config/atomic.ts's writeFileAtomic does it: a temp
 * file, fsync'd, renamed. Only node:fs and node:path at load (node:crypto when a temp file is named):
 * shell completion writes its target-id memo with it on a key press.
 */

export interface WriteOptions {
  /**
   * false for a cache whose loss costs nothing but a lookup (known ids, code names, the clock skew):
   * no fsync of the file or of its directory. The rename still shows every reader the old file or
   * the new one; only a power cut may lose the write (readers take a damaged cache for none). The
   * two fsyncs are most of a one-shot `create`'s file work. Default true.
   */
  durable?: boolean;
}

/** A fresh name beside the file being written: created exclusively ('wx'), so nothing there is ever followed. */
export function tempName(dir: string, name: string): string {
  const { randomBytes } = process.getBuiltinModule('node:crypto');
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
