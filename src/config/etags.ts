import { closeSync, fstatSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../schemas/record.js';
import { ensurePrivateDir, writeFileAtomic } from './atomic.js';
import { openOwnFile } from './own-file.js';
import { dataDir, profileFileName } from './paths.js';
import { readerFileName } from './reader.js';

/** Latest known ETag per parcel id, per target (`targetId`: one service, or one sandbox database). */
export interface EtagCache {
  get(id: string): Promise<string | undefined>;
  set(id: string, etag: string): Promise<void>;
  delete(id: string): Promise<void>;
  /** Every parcel id with a cached ETag, oldest first (for id-prefix lookups). */
  ids(): Promise<string[]>;
  /** Path of the log file (for diagnostics). */
  readonly path: string;
}

export interface EtagCacheOptions {
  /** How many ids survive a compaction (default 10,000). The log is compacted past twice this many lines. */
  maxEntries?: number;
  /** One reader's log (config/reader.ts) instead of the per-user one. */
  reader?: string;
}

const ETAG_CACHE_MAX_ENTRIES = 10_000;

export function etagLogPath(env: NodeJS.ProcessEnv, target: string): string {
  return join(dataDir(env), 'etags', `${profileFileName(target)}.log`);
}

/** The folder of one target's per-reader logs (`etags/readers/<target>/<reader digest>.log`). */
export function etagReadersDir(env: NodeJS.ProcessEnv, target: string): string {
  return join(dataDir(env), 'etags', 'readers', profileFileName(target));
}

interface LogLine {
  id: string;
  /** null = tombstone. */
  etag: string | null;
}

function parseLine(line: string): LogLine | undefined {
  if (line === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    if (!isRecord(value)) return undefined;
    const { id, etag } = value;
    if (typeof id !== 'string') return undefined;
    if (typeof etag === 'string') return { id, etag };
    if (etag === null) return { id, etag: null };
    return undefined;
  } catch {
    // A torn line (e.g. a crash mid-append) is skipped; the entries around it stay usable.
    return undefined;
  }
}

/**
 * An append-only log per target (`etags/<target>.log`, one JSON line `{"id","etag"}` per change,
 * `"etag": null` as tombstone). `set`/`delete` append one line (O(1)); reads use an in-memory index
 * that is loaded once and topped up from the file's tail when another process appended to it. When
 * the log passes twice the bound it is rewritten (writeFileAtomic) to the most recent `maxEntries`
 * ids. ETags are kept verbatim, quotes included. Files are created with mode 0600.
 *
 * Concurrent writers: appends are single O_APPEND writes of one line, so they do not interleave;
 * a line appended by another process during a compaction may be lost, which only costs a re-read.
 */
export function openEtagCache(env: NodeJS.ProcessEnv, target: string, options: EtagCacheOptions = {}): EtagCache {
  const maxEntries = options.maxEntries ?? ETAG_CACHE_MAX_ENTRIES;
  const dir = options.reader === undefined ? join(dataDir(env), 'etags') : etagReadersDir(env, target);
  const path = options.reader === undefined ? etagLogPath(env, target) : join(dir, `${readerFileName(options.reader)}.log`);
  /** id → etag, in recency order (a Map re-inserted on every write keeps the latest last). */
  let index: Map<string, string> | undefined;
  let lines = 0;
  /** Bytes of the file already reflected in `index`. */
  let known = 0;
  let dirReady = false;
  let queue: Promise<unknown> = Promise.resolve();

  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  function apply(entry: LogLine): void {
    if (!index) return;
    index.delete(entry.id);
    if (entry.etag !== null) index.set(entry.id, entry.etag);
  }

  function ingest(text: string): void {
    // Only complete lines are taken; a trailing partial line is left for the next read.
    const end = text.lastIndexOf('\n');
    if (end < 0) return;
    const body = text.slice(0, end);
    for (const line of body.split('\n')) {
      lines++;
      const entry = parseLine(line);
      if (entry) apply(entry);
    }
    known += Buffer.byteLength(text.slice(0, end + 1));
  }

  /** Brings `index` up to the file: read whole the first time or after someone else rewrote it, else only what was appended since. */
  function sync(): void {
    let fd: number;
    try {
      fd = openOwnFile(path, 'read');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      index ??= new Map();
      if (known !== 0) {
        index = new Map();
        known = 0;
        lines = 0;
      }
      return;
    }
    try {
      const size = fstatSync(fd).size;
      if (index && size === known) return;
      if (!index || size < known) {
        // First load, or the file was rewritten (compacted) by someone else: read it whole.
        index = new Map();
        known = 0;
        lines = 0;
      }
      const buffer = Buffer.alloc(size - known);
      const bytesRead = readSync(fd, buffer, 0, buffer.length, known);
      ingest(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      closeSync(fd);
    }
  }

  async function append(entry: LogLine): Promise<void> {
    sync();
    if (!dirReady) {
      await ensurePrivateDir(dir);
      dirReady = true;
    }
    const line = `${JSON.stringify(entry)}\n`;
    const fd = openOwnFile(path, 'append');
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    known += Buffer.byteLength(line);
    lines++;
    apply(entry);
    if (lines > 2 * maxEntries) await compact();
  }

  async function compact(): Promise<void> {
    if (!index) return;
    const entries = [...index.entries()].slice(-maxEntries);
    const text = entries.map(([id, etag]) => `${JSON.stringify({ id, etag })}\n`).join('');
    await writeFileAtomic(path, text);
    index = new Map(entries);
    lines = entries.length;
    known = Buffer.byteLength(text);
  }

  return {
    path,
    get: (id) =>
      serial(async () => {
        sync();
        return index?.get(id);
      }),
    set: (id, etag) => serial(() => append({ id, etag })),
    ids: () =>
      serial(async () => {
        sync();
        return [...(index?.keys() ?? [])];
      }),
    delete: (id) =>
      serial(async () => {
        sync();
        if (!index?.has(id)) return;
        await append({ id, etag: null });
      }),
  };
}
