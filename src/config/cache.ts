import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';
import { readOwnFile } from './own-file.js';
import { dataDir, profileFileName } from './paths.js';

/** A small JSON cache with a time-to-live, one folder per target (`targetId`): reference code names and the like. */

function cachePath(env: NodeJS.ProcessEnv, target: string, name: string): string {
  return join(dataDir(env), 'cache', profileFileName(target), `${profileFileName(name)}.json`);
}

interface CacheFile {
  /** Unix milliseconds. */
  written_at: number;
  data: unknown;
}

/**
 * The cached value when it exists and is at most `maxAgeS` seconds old; otherwise undefined. A cache
 * that is a link or not a regular file is refused (exit 2) rather than taken for none: the next
 * write would be refused too, and the user learns of it once.
 */
export async function readCached<T>(env: NodeJS.ProcessEnv, target: string, name: string, maxAgeS: number, nowMs: number = Date.now()): Promise<T | undefined> {
  let text: string | undefined;
  try {
    text = readOwnFile(cachePath(env, target, name));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const file = JSON.parse(text) as Partial<CacheFile>;
    if (typeof file.written_at !== 'number' || !('data' in file)) return undefined;
    const age = nowMs - file.written_at;
    if (age < 0 || age > maxAgeS * 1000) return undefined;
    return file.data as T;
  } catch {
    return undefined;
  }
}

/** Stores a value (atomically, mode 0600; not fsync'd: a lost cache is only a lookup again). */
export async function writeCached(env: NodeJS.ProcessEnv, target: string, name: string, data: unknown, nowMs: number = Date.now()): Promise<void> {
  const file: CacheFile = { written_at: nowMs, data };
  await writeFileAtomic(cachePath(env, target, name), JSON.stringify(file), { durable: false });
}
