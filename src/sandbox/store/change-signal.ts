import { closeSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** Bytes at the start of the `-shm` file: the first copy of the WAL-index header. */
const WAL_INDEX_HEADER_BYTES = 48;

export interface ChangeSignal {
  /** PRAGMA data_version's answer: a number that changes whenever another connection committed since the last call. */
  version(): number;
  close(): void;
}

/**
 * PRAGMA data_version (did another connection commit since I last asked?), asked only when the file
 * says something may have been committed at all.
 *
 * data_version opens and closes a read transaction: file locks and a `stat`, two to three times the
 * cost of one `pread` (bench/change-check.mjs). A WAL database keeps its WAL-index in `<file>-shm`, whose
 * first 48 bytes are the WAL-index header (https://sqlite.org/walformat.html): every commit of any
 * connection rewrites it (change counter, last frame, checksums) and nothing else does. So the header
 * is read first: unchanged means no commit at all since the last call, and the answer stands; changed
 * (a commit by anyone, this connection included, or a header read half-way through another process's
 * write) means data_version is asked, and it alone decides. If the header cannot be read (no `-shm`
 * file: a non-WAL database), data_version is asked every time. A `:memory:` database is private to
 * its one connection, so its answer never changes and nothing is asked.
 */
export function openChangeSignal(db: Database.Database, path: string): ChangeSignal {
  // A private (`:memory:` or temporary) database has no other connection: nothing else can ever commit to it.
  if (path === ':memory:' || path === '') return { version: () => 0, close: () => undefined };
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let version = -1;
  const fromPragma = (): number => (version = dataVersion.get() as number);
  const fd = walIndexFd(db, path);
  if (fd === undefined) return { version: fromPragma, close: () => undefined };

  let last = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let next = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let open = true;
  return {
    version() {
      if (!open) return fromPragma();
      const read = readSync(fd, next, 0, WAL_INDEX_HEADER_BYTES, 0);
      if (read === WAL_INDEX_HEADER_BYTES && version !== -1 && next.equals(last)) return version;
      [last, next] = [next, last];
      return fromPragma();
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** A read-only descriptor of the database's `-shm` file when it is a WAL file database, else undefined. */
function walIndexFd(db: Database.Database, path: string): number | undefined {
  if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return undefined;
  try {
    return openSync(`${path}-shm`, 'r');
  } catch {
    return undefined;
  }
}
