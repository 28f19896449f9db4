import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { etagLogPath, etagReadersDir } from './etags.js';
import { dataDir, defaultSandboxDb, profileFileName } from './paths.js';
import { targetId } from './target.js';

/** The files of the `--sandbox` database and what is cached for it (ETags, code names). */

/** SQLite's companions of a database file (write-ahead log, shared memory, rollback journal). */
const SQLITE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

export async function sandboxDataExists(env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await access(defaultSandboxDb(env));
    return true;
  } catch {
    return false;
  }
}

/** Deletes the sandbox database and its per-target caches. Resolves to whether there was a database. */
export async function resetSandboxData(env: NodeJS.ProcessEnv): Promise<boolean> {
  const db = defaultSandboxDb(env);
  const existed = await sandboxDataExists(env);
  const target = targetId({ sandboxDb: db });
  for (const suffix of SQLITE_SUFFIXES) await rm(`${db}${suffix}`, { force: true });
  await rm(etagLogPath(env, target), { force: true });
  await rm(etagReadersDir(env, target), { recursive: true, force: true });
  await rm(join(dataDir(env), 'cache', profileFileName(target)), { recursive: true, force: true });
  return existed;
}
