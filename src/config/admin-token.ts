import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { dataDir } from './paths.js';

/** Environment variable that gives the sandbox admin token (wins over the token file). */
export const ADMIN_TOKEN_ENV = 'PARCELS_SANDBOX_ADMIN_TOKEN';

const LOOPBACK_HOSTS = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

/** The 0600 file `sandbox serve` writes its admin token to: one per port, in the data directory. */
export function adminTokenFile(env: NodeJS.ProcessEnv, port: number): string {
  return join(dataDir(env), `sandbox-admin-${port}.token`);
}

export async function writeAdminToken(env: NodeJS.ProcessEnv, port: number, token: string): Promise<string> {
  const file = adminTokenFile(env, port);
  await writeFileAtomic(file, `${token}\n`);
  return file;
}

/** Removes the token file when its sandbox stops; a file already gone is fine. */
export async function removeAdminToken(file: string): Promise<void> {
  await unlink(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The first line of a token file (e.g. `--admin-token-file`), or undefined when it is missing or empty. */
export async function readTokenFile(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const token = text.split('\n')[0]?.trim();
  return token === '' ? undefined : token;
}

/**
 * The admin token for the sandbox at `baseUrl`: PARCELS_SANDBOX_ADMIN_TOKEN, else the token file
 * `sandbox serve` wrote for that port. The file is read only for a loopback base URL, so a token
 * made for a local sandbox never goes to another host.
 */
export async function findAdminToken(env: NodeJS.ProcessEnv, baseUrl: string): Promise<{ token: string | undefined; file: string | undefined }> {
  const fromEnv = env[ADMIN_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { token: fromEnv, file: undefined };
  const url = new URL(baseUrl);
  if (!LOOPBACK_HOSTS.test(url.hostname)) return { token: undefined, file: undefined };
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const file = adminTokenFile(env, port);
  return { token: await readTokenFile(file), file };
}
