import { closeSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** Bytes at the start of the `-shm` file: the first copy of the WAL-index header. */
const WAL_INDEX_HEADER_BYTES = 48;

export interface ChangeSignal {
  /** A number that changes whenever a commit (by any connection, this one included) happened since the last call. */
  version(): number;
  close(): void;
}

/**
 * Tells whether the database may have changed since it was last asked, as cheaply as the file allows.
 *
 * A WAL database keeps its WAL-index in `<file>-shm`, whose first 48 bytes are the WAL-index header
 * (https://sqlite.org/walformat.html): every commit of any connection rewrites it (its change
 * counter, last frame and checksums), and nothing else does. Reading those bytes is one `pread`,
 * where `PRAGMA data_version` opens and closes a read transaction (locks and a `stat`, about three
 * times the cost, measured in bench/). A header that differs from the last one read, even one read
 * while another process was half-way through writing it, counts as a change; a commit that completed
 * before the read has always written it whole. If the header cannot be read (no `-shm` file: a
 * `:memory:` or non-WAL database), the signal falls back to `PRAGMA data_version`.
 */
export function openChangeSignal(db: Database.Database, path: string): ChangeSignal {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let counter = 0;
  let lastDataVersion = -1;
  const fromPragma = (): number => {
    const v = dataVersion.get() as number;
    if (v !== lastDataVersion) {
      lastDataVersion = v;
      counter++;
    }
    return counter;
  };
  const fd = walIndexFd(db, path);
  if (fd === undefined) return { version: fromPragma, close: () => undefined };

  let last = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let next = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let open = true;
  return {
    version() {
      if (!open) return fromPragma();
      const read = readSync(fd, next, 0, WAL_INDEX_HEADER_BYTES, 0);
      if (read !== WAL_INDEX_HEADER_BYTES || !next.equals(last)) {
        [last, next] = [next, last];
        counter++;
      }
      return counter;
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
  if (path === ':memory:' || path === '') return undefined;
  if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return undefined;
  try {
    return openSync(`${path}-shm`, 'r');
  } catch {
    return undefined;
  }
}
