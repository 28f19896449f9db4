import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readOwnFile } from './own-file.js';
import { dataDir } from './paths.js';
import { processAlive } from './process-alive.js';
import { isLoopbackHost } from '../schemas/host.js';

/** Environment variable that gives the sandbox admin token (wins over the token file). */
export const ADMIN_TOKEN_ENV = 'PARCELS_SANDBOX_ADMIN_TOKEN';

/**
 * The 0600 file `sandbox serve` writes its admin token to: one per port, in the data directory. The
 * token is alone on the first line (scripts read it with `head -n1`); the second line, `pid N`,
 * ties the file to the process that serves: a file left by a `kill -9`'d sandbox names a process
 * that is gone, and is ignored, so the token is never sent to whatever listens on that port later.
 */
export function adminTokenFile(env: NodeJS.ProcessEnv, port: number): string {
  return join(dataDir(env), `sandbox-admin-${port}.token`);
}

export async function writeAdminToken(env: NodeJS.ProcessEnv, port: number, token: string): Promise<string> {
  const file = adminTokenFile(env, port);
  await writeFileAtomic(file, `${token}\npid ${process.pid}\n`);
  return file;
}

/** Removes the token file when its sandbox stops; a file already gone is fine. */
export async function removeAdminToken(file: string): Promise<void> {
  await unlink(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The first line of a token file the user names (`--admin-token-file`: read as a shell would, a pipe too), or undefined when it is missing or empty. */
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

/** The token of a file `sandbox serve` wrote (the CLI's own: a link or a FIFO there is refused), if the process that wrote it still runs. */
function readServeToken(file: string): { token: string | undefined; stale: boolean } {
  const lines = readOwnFile(file)?.split('\n');
  if (lines === undefined) return { token: undefined, stale: false };
  const pid = Number(/^pid (\d+)$/.exec(lines[1]?.trim() ?? '')?.[1]);
  const token = lines[0]?.trim();
  if (!Number.isSafeInteger(pid) || pid <= 0 || !processAlive(pid)) return { token: undefined, stale: true };
  return { token: token === '' ? undefined : token, stale: false };
}

/**
 * The admin token for the sandbox at `baseUrl`: PARCELS_SANDBOX_ADMIN_TOKEN, else the token file
 * `sandbox serve` wrote for that port. The file is read only for a loopback base URL, so a token
 * made for a local sandbox never goes to another host.
 */
export async function findAdminToken(
  env: NodeJS.ProcessEnv,
  baseUrl: string,
): Promise<{ token: string | undefined; file: string | undefined; stale: boolean }> {
  const fromEnv = env[ADMIN_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { token: fromEnv, file: undefined, stale: false };
  const file = loopbackTokenFile(env, baseUrl);
  if (file === undefined) return { token: undefined, file: undefined, stale: false };
  return { ...readServeToken(file), file };
}

/** The token file `sandbox serve` keeps for a loopback base URL's port; undefined for any other host. */
export function loopbackTokenFile(env: NodeJS.ProcessEnv, baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  if (!isLoopbackHost(url.hostname)) return undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return adminTokenFile(env, port);
}
