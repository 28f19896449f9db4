import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

/**
 * Who read a parcel, for the ETag a `patch` sends (STYLE.md pattern 14, after sudo's tty tickets):
 * `$PARCELS_SESSION` when set (scripts and CI jobs that must be protected from each other set one);
 * else the terminal session — the controlling terminal and its session leader's start time, so a
 * terminal that reuses a pts or a recycled process id inherits nothing; else (no terminal, or no
 * /proc to ask) undefined, and the per-user cache serves as it always has. Found from /proc without
 * starting a process.
 */
export function readerOf(env: NodeJS.ProcessEnv, procRoot = '/proc'): string | undefined {
  const named = env.PARCELS_SESSION;
  if (named !== undefined && named !== '') return `session:${named}`;
  const self = procStat(`${procRoot}/self/stat`);
  if (self === undefined) return undefined;
  const session = self[SESSION_FIELD];
  const terminal = self[TTY_FIELD];
  if (terminal === undefined || terminal === '0' || session === undefined || session === '0') return undefined;
  const leaderStart = procStat(`${procRoot}/${session}/stat`)?.[START_TIME_FIELD];
  // A leader we cannot see (another user's, or gone): its session id alone could be recycled.
  if (leaderStart === undefined) return undefined;
  return `tty:${terminal}:${session}:${leaderStart}`;
}

/** A reader as a file name: a digest, so `$PARCELS_SESSION` can be any text. */
export function readerFileName(reader: string): string {
  return createHash('sha256').update(reader).digest('hex').slice(0, 32);
}

// Fields of /proc/<pid>/stat after the `(comm)` field, 0-based from "state" (proc(5): field 3).
const SESSION_FIELD = 6 - 3;
const TTY_FIELD = 7 - 3;
const START_TIME_FIELD = 22 - 3;

function procStat(path: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields start after its last ')'.
  const end = text.lastIndexOf(')');
  return end < 0 ? undefined : text.slice(end + 2).trim().split(' ');
}
