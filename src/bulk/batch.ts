import { hash } from 'node:crypto';
import { createReadStream, realpathSync } from 'node:fs';
import { isPipedPath, refuseNonText } from './input-lines.js';
import { hashFile } from './keys.js';
import { readNewest } from './newest.js';
import { spoolInput } from './spool.js';
import type { BulkKind } from './types.js';

/**
 * Which batch a run belongs to. A batch is its input — a file's resolved real path; standard
 * input's content, or --batch-id — with the kind of request; the target keeps journals apart (one
 * journal per batch and target). Another file, even with the same lines, is another batch. A path's
 * batch is its newest: the one its last --new-batch started (newest.ts), else the path's own.
 */

export interface BatchChoice {
  kind: BulkKind;
  /** A file path, or "-" for standard input. */
  input: string;
  stdin?: NodeJS.ReadableStream;
  /** The data directory (standard input is spooled there; the newest batch of each path is kept there). */
  dataDir: string;
  /** Who the requests go to: a path's newest batch is per target. */
  target: string;
  batchId?: string;
  /** Import the file as a batch of its own content rather than the batch of its path. */
  newBatch?: boolean;
  /** Stops spooling and hashing (AbortError). */
  signal?: AbortSignal;
}

export interface BatchPlan {
  /** The batch id, as the summary, `parcels batches` and `--batch-id` show it. */
  name: string;
  /** The journal's batch: kind and name. */
  journalBatch: string;
  /** What to read: the file, or standard input's spool file. */
  source: string;
  /** SHA-256 of the input's bytes. */
  sha256: string;
  /** The input's resolved path (a file), for the journal and the legacy search. */
  path: string | undefined;
  /** The name was given by --batch-id. */
  given: boolean;
  /** --new-batch: this batch becomes the path's newest once its run starts (recordNewest). */
  startsNewest: boolean;
}

/** The part of a batch id made from a hash. */
const NAME_HEX = 16;

export async function planBatch(choice: BatchChoice): Promise<BatchPlan> {
  // Standard input, or a path that can be read only once (a pipe, a device), is spooled: its batch is its content.
  const piped = choice.input === '-' ? (choice.stdin ?? process.stdin) : isPipedPath(choice.input) ? createReadStream(choice.input) : undefined;
  if (piped !== undefined) {
    const spooled = await spoolInput(piped, choice.dataDir, choice.input, choice.signal);
    const name = choice.batchId ?? `stdin-${spooled.hash.slice(0, NAME_HEX)}`;
    return { name, journalBatch: journalBatchOf(choice.kind, name), source: spooled.path, sha256: spooled.hash, path: undefined, given: choice.batchId !== undefined, startsNewest: false };
  }
  const path = realpathSync(choice.input);
  await refuseNonText(path);
  const sha256 = await hashFile(path, choice.signal);
  const startsNewest = choice.batchId === undefined && choice.newBatch === true;
  const name =
    choice.batchId ??
    (startsNewest ? hash('sha256', `file\0${path}\0${sha256}`, 'hex').slice(0, NAME_HEX) : (readNewest(choice.dataDir, choice.target, choice.kind, path)?.batch ?? pathBatchName(path)));
  return { name, journalBatch: journalBatchOf(choice.kind, name), source: path, sha256, path, given: choice.batchId !== undefined, startsNewest };
}

/** The batch of a path before any --new-batch of it. */
export function pathBatchName(path: string): string {
  return hash('sha256', `file\0${path}`, 'hex').slice(0, NAME_HEX);
}

/** `create~<name>`: the "~" keeps these apart from the journals of version 1, named `create-<hash or id>`. */
export function journalBatchOf(kind: BulkKind, name: string): string {
  return `${kind}~${name}`;
}
