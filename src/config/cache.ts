import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDir, profileFileName } from './paths.js';

/** A small per-profile JSON cache with a time-to-live (reference code names and the like). */

export function cachePath(env: NodeJS.ProcessEnv, profile: string, name: string): string {
  return join(dataDir(env), 'cache', profileFileName(profile), `${profileFileName(name)}.json`);
}

interface CacheFile {
  /** Unix milliseconds. */
  written_at: number;
  data: unknown;
}

/** The cached value when it exists and is at most `maxAgeS` seconds old; otherwise undefined. */
export async function readCached<T>(env: NodeJS.ProcessEnv, profile: string, name: string, maxAgeS: number, nowMs: number = Date.now()): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(cachePath(env, profile, name), 'utf8');
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

/** Stores a value (atomically: temp file + rename; mode 0600). */
export async function writeCached(env: NodeJS.ProcessEnv, profile: string, name: string, data: unknown, nowMs: number = Date.now()): Promise<void> {
  const path = cachePath(env, profile, name);
  await mkdir(join(dataDir(env), 'cache', profileFileName(profile)), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const file: CacheFile = { written_at: nowMs, data };
  try {
    await writeFile(temp, JSON.stringify(file), { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
