import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
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

/** The cached value when it exists and is at most `maxAgeS` seconds old; otherwise undefined. */
export async function readCached<T>(env: NodeJS.ProcessEnv, target: string, name: string, maxAgeS: number, nowMs: number = Date.now()): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(cachePath(env, target, name), 'utf8');
  } catch {
    return undefined;
  }
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
