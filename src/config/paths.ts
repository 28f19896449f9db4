import { homedir } from 'node:os';
import { join } from 'node:path';

/** The application name used for the platform directories (same as `conf` with projectName 'parcels', projectSuffix ''). */
const APP_NAME = 'parcels';

function home(env: NodeJS.ProcessEnv): string {
  // os.homedir() honours HOME on POSIX and USERPROFILE on Windows of the *current* process; prefer
  // the env we were handed so tests (and callers with a custom env) stay isolated.
  return env.HOME || env.USERPROFILE || homedir();
}

/**
 * Directory of config.json. PARCELS_CONFIG_DIR wins; otherwise the platform config directory that
 * `conf`/`env-paths` would pick for "parcels" without a suffix.
 */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.PARCELS_CONFIG_DIR) return env.PARCELS_CONFIG_DIR;
  const h = home(env);
  if (platform === 'darwin') return join(h, 'Library', 'Preferences', APP_NAME);
  if (platform === 'win32') return join(env.APPDATA || join(h, 'AppData', 'Roaming'), APP_NAME, 'Config');
  return join(env.XDG_CONFIG_HOME || join(h, '.config'), APP_NAME);
}

/** Directory of local data (ETag logs, caches, the sandbox database). PARCELS_CONFIG_DIR wins here too. */
export function dataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.PARCELS_CONFIG_DIR) return env.PARCELS_CONFIG_DIR;
  const h = home(env);
  if (platform === 'darwin') return join(h, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(h, 'AppData', 'Local'), APP_NAME, 'Data');
  return join(env.XDG_DATA_HOME || join(h, '.local', 'share'), APP_NAME);
}

/** Default database file of `parcels sandbox` / `--sandbox`. */
export function defaultSandboxDb(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return join(dataDir(env, platform), 'sandbox.db');
}

/**
 * The default sandbox database path, with its directory created (0700) and the file itself made
 * 0600 (created empty when missing, tightened when looser), like every other data file. SQLite
 * gives its -wal and -shm files the database file's mode.
 */
export async function prepareDefaultSandboxDb(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = dataDir(env);
  // Loaded here, not at the top: shell completion reads these paths and must not load fs/promises.
  const { ensurePrivateDir, ensurePrivateFile } = await import('./atomic.js');
  await ensurePrivateDir(dir);
  const db = join(dir, 'sandbox.db');
  ensurePrivateFile(db);
  return db;
}

/** A profile name as a safe single file-name component. */
export function profileFileName(profile: string): string {
  return encodeURIComponent(profile).replace(/^\./, '%2E');
}

/** Parcel ids recent output showed, per target (src/config/known-ids.ts); read by id prefixes and completion. */
export function knownIdsPath(env: NodeJS.ProcessEnv, target: string): string {
  return join(dataDir(env), 'known-ids', `${profileFileName(target)}.json`);
}
