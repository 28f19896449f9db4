import { appendFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, refuseSymlink, writeFileAtomic } from './atomic.js';
import { dataDir, profileFileName } from './paths.js';

/**
 * Parcel ids a command recently printed (`parcels list`), per target, for shell completion: one id
 * per line, newest last. Kept small: past RECENT_MAX_BYTES it is cut to the newest RECENT_KEEP ids.
 */
const RECENT_MAX_BYTES = 64 * 1024;
const RECENT_KEEP = 500;

export function recentIdsPath(env: NodeJS.ProcessEnv, target: string): string {
  return join(dataDir(env), 'recent', `${profileFileName(target)}.log`);
}

export async function appendRecentIds(env: NodeJS.ProcessEnv, target: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const path = recentIdsPath(env, target);
  await ensurePrivateDir(join(dataDir(env), 'recent'));
  await refuseSymlink(path);
  await appendFile(path, ids.map((id) => `${id}\n`).join(''), { mode: 0o600 });
  if ((await stat(path)).size <= RECENT_MAX_BYTES) return;
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
  await writeFileAtomic(path, lines.slice(-RECENT_KEEP).map((id) => `${id}\n`).join(''));
}
