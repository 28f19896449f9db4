import { stat } from 'node:fs/promises';
import { configPath } from './store.js';

/** What `parcels doctor` needs to know about the profiles file. */
export type ConfigFileState =
  | { exists: false; path: string }
  /** `mode` is the permission bits (e.g. 0o600); `loose` when group or others may read or write it. */
  | { exists: true; path: string; mode: number; loose: boolean };

/**
 * The profiles file's permissions. On Windows, modes say nothing about who may read a file, so a
 * file there is never reported as loose.
 */
export async function configFileState(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<ConfigFileState> {
  const path = configPath(env);
  try {
    const mode = (await stat(path)).mode & 0o777;
    return { exists: true, path, mode, loose: platform !== 'win32' && (mode & 0o077) !== 0 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, path };
    throw error;
  }
}
