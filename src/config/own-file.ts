import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { UsageError } from '../errors.js';

/**
 * The one opener of the files the CLI names itself: config.json, caches, the ETag log, known ids,
 * journals, locks, done files, spools, the admin token file, the created index. Such a file is a
 * regular file or it is refused (exit 2), never followed through a symbolic link and never waited
 * on: a FIFO planted where one goes would otherwise hang every command, deaf to Ctrl-C. Files the
 * user names (inputs, `--results`) are opened as a shell would, elsewhere.
 *
 * Only node:fs and errors.ts here: shell completion reads these files on every key press and may import this.
 */

const REPLACE_HINT = 'replace it with a regular file (or point PARCELS_CONFIG_DIR at a directory of your own) and try again';

/** A file we were asked to write or read is a symbolic link: writing would land in whatever it points at. */
export class SymlinkError extends UsageError {
  constructor(
    readonly path: string,
    /** What was refused: a file the CLI only reads (a journal being listed) is refused too. */
    doing: 'write through it' | 'read it' = 'write through it',
  ) {
    super(`${path} is a symbolic link; refusing to ${doing}`, undefined, 'replace the link with a regular file (or point PARCELS_CONFIG_DIR at a directory of your own) and try again');
  }
}

/** A file of the CLI's own is a FIFO, a device, a socket or a directory: it keeps its state in regular files only. */
export class NotRegularFileError extends UsageError {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`${path} is ${what}, not a regular file; the CLI keeps its state in regular files only`, undefined, REPLACE_HINT);
  }
}

/** How a file of the CLI's own is opened by `openOwnFile`. */
export type OwnFileMode = 'read' | 'append' | 'truncate' | 'update';

/** Undefined where the platform lacks them (Windows): the path is checked first there instead. */
const NO_FOLLOW = constants.O_NOFOLLOW as number | undefined;
const NON_BLOCK = constants.O_NONBLOCK as number | undefined;
const NO_CTTY = constants.O_NOCTTY as number | undefined;

const OWN_FILE_FLAGS: Readonly<Record<OwnFileMode, number>> = {
  read: constants.O_RDONLY,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
  truncate: constants.O_WRONLY | constants.O_TRUNC | constants.O_CREAT,
  /** Read and write, created when missing, nothing truncated (a database file). */
  update: constants.O_RDWR | constants.O_CREAT,
};

/**
 * Opens a file of the CLI's own and returns its descriptor; a new file gets `mode`. O_NOFOLLOW makes
 * the open itself fail on a link (no window between a check and the open), O_NONBLOCK makes opening
 * a FIFO return at once, and fstat on the descriptor then refuses anything but a regular file.
 * A link is a SymlinkError, anything else not regular a NotRegularFileError (both exit 2, naming
 * the file); what they point at is not touched. Other errors (ENOENT among them) are thrown as they are.
 */
export function openOwnFile(path: string, how: OwnFileMode, mode = 0o600): number {
  const doing = how === 'read' ? 'read it' : 'write through it';
  if (NO_FOLLOW === undefined && isSymlinkSync(path)) throw new SymlinkError(path, doing);
  let fd: number;
  try {
    fd = openSync(path, OWN_FILE_FLAGS[how] | (NO_FOLLOW ?? 0) | (NON_BLOCK ?? 0) | (NO_CTTY ?? 0), mode);
  } catch (error) {
    throw refusal(path, doing) ?? error;
  }
  let kind: string | undefined;
  try {
    kind = notRegular(fstatSync(fd));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (kind === undefined) return fd;
  closeSync(fd);
  throw new NotRegularFileError(path, kind);
}

/**
 * The error an open failure stands for when the thing at `path` is not a regular file: ELOOP
 * (Linux, macOS) or EMLINK (FreeBSD) for a link (ELOOP can also mean a loop of directory links on
 * the way, so the path itself is looked at); ENXIO for a FIFO opened for writing with no reader,
 * EISDIR for a directory. Undefined when it is something else (a missing file, a permission).
 */
function refusal(path: string, doing: 'write through it' | 'read it'): UsageError | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink()) return new SymlinkError(path, doing);
  const kind = notRegular(stats);
  return kind === undefined ? undefined : new NotRegularFileError(path, kind);
}

function notRegular(stats: ReturnType<typeof fstatSync>): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

/** A file of the CLI's own, read whole as text through `openOwnFile`; undefined when it does not exist. */
export function readOwnFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openOwnFile(path, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** True when `path` exists as a symbolic link. */
export function isSymlinkSync(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Removes a file of the CLI's own when it is a regular file; true when it did. A link (or anything
 * else) at `path` is left as it is: what it points at is never touched. A missing file is no error.
 */
export function removeOwnFile(path: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The names in a folder of ours; none when it does not exist (yet). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
