import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { processAlive } from '../../config/process-alive.js';
import { readOwnFile } from '../../config/own-file.js';
import { UsageError } from '../../errors.js';
import { sleep as abortableSleep, type Sleep } from '../../api/core/sleep.js';

/** Another live process holds the lock of this journal. */
export class JournalLockedError extends Error {
  override readonly name = 'JournalLockedError';
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(`another run (pid ${pid}) is using this batch; wait for it to finish`);
  }
}

export interface JournalLock {
  release(): void;
}

/**
 * Takes `<path>` exclusively (O_CREAT|O_EXCL) and writes our pid into it. A lock whose pid no longer
 * runs (a run killed with -9) is stale: it is removed and taken once more.
 */
export function acquireLock(lockPath: string, pid: number = process.pid): JournalLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // O_EXCL never follows a link, but reading the holder's pid (and taking a stale lock) would:
      // the one opener refuses a link or a FIFO there (which would block the read for ever).
      const holder = readHolder(lockPath);
      if (holder !== undefined && processAlive(holder)) throw new JournalLockedError(lockPath, holder);
      // No pid yet: another run created the file a moment ago and is about to write it.
      if (holder === undefined && justCreated(lockPath)) throw new JournalLockedError(lockPath, 0);
      unlinkIfPresent(lockPath);
      continue;
    }
    writeSync(fd, `${pid}\n`);
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        unlinkIfPresent(lockPath);
      },
    };
  }
  throw new JournalLockedError(lockPath, readHolder(lockPath) ?? 0);
}

export interface LockWait {
  /** Give up after this long (ms). */
  waitMs: number;
  /** Look again this often (ms). */
  pollMs?: number;
  sleep?: Sleep;
  now?: () => number;
}

/**
 * acquireLock, but a lock held by another live process is waited for (polling) up to `waitMs`;
 * after that the JournalLockedError of the last try is thrown. For short holders such as an
 * outbox capture: two commands capturing at the same instant both get in, one after the other.
 */
export async function acquireLockWaiting(lockPath: string, wait: LockWait, pid: number = process.pid): Promise<JournalLock> {
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? abortableSleep;
  const deadline = now() + wait.waitMs;
  for (;;) {
    try {
      return acquireLock(lockPath, pid);
    } catch (error) {
      if (!(error instanceof JournalLockedError) || now() >= deadline) throw error;
    }
    await sleep(Math.min(wait.pollMs ?? 50, Math.max(1, deadline - now())));
  }
}

/** A lock file without a pid counts as held for this long after it was created. */
const PID_GRACE_MS = 5_000;

function justCreated(lockPath: string): boolean {
  try {
    return Date.now() - statSync(lockPath).mtimeMs < PID_GRACE_MS;
  } catch {
    return false;
  }
}

function readHolder(lockPath: string): number | undefined {
  let text: string | undefined;
  try {
    text = readOwnFile(lockPath);
  } catch (error) {
    // Refused (a link, a FIFO): said, never taken over.
    if (error instanceof UsageError) throw error;
    return undefined;
  }
  const pid = Number.parseInt(text ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
