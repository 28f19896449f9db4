import { hash } from 'node:crypto';
import { closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic.js';
import { isSymlinkSync, namesIn, openOwnFile, readOwnFile, removeOwnFile } from '../config/own-file.js';
import { targetJournals } from './journal/paths.js';
import { CorruptJournalError } from './journal/read.js';
import type { BulkKind } from './types.js';

/**
 * A path's newest batch, per target and kind: `--new-batch` makes the batch it starts the one a
 * plain run of that path compares with and continues (without one, the batch of the path itself).
 * One small file per path (journals/<target>/newest/<kind>-<hash of path>.json), replaced
 * atomically, never followed through a link.
 */

export interface NewestBatch {
  v: 1;
  kind: BulkKind;
  /** The input's resolved path. */
  path: string;
  /** The batch id (as the summary names it). */
  batch: string;
  /** When it became the newest (ms since the epoch). */
  at: number;
}

const POINTERS = 'newest';

function pointerPath(dir: string, target: string, kind: BulkKind, path: string): string {
  return join(targetJournals(dir, target), POINTERS, `${kind}-${hash('sha256', path, 'hex').slice(0, 16)}.json`);
}

/** The newest batch recorded for `path`; undefined when none was (its own batch is then the newest). */
export function readNewest(dir: string, target: string, kind: BulkKind, path: string): NewestBatch | undefined {
  const file = pointerPath(dir, target, kind, path);
  let text: string;
  try {
    const fd = openOwnFile(file, 'read');
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let record: Partial<NewestBatch>;
  try {
    record = JSON.parse(text) as Partial<NewestBatch>;
  } catch {
    record = {};
  }
  if (record.v !== 1 || record.path !== path || record.kind !== kind || typeof record.batch !== 'string') {
    throw new CorruptJournalError(file, `: not the newest batch of ${path}`, ['remove the file: plain runs of the path then use its own batch']);
  }
  return record as NewestBatch;
}

export async function recordNewest(dir: string, target: string, newest: Omit<NewestBatch, 'v'>): Promise<void> {
  const record: NewestBatch = { v: 1, ...newest };
  await writeFileAtomic(pointerPath(dir, target, newest.kind, newest.path), `${JSON.stringify(record)}\n`);
}

/**
 * `batches prune`: removes the pointers of one target's journal folder that name a removed batch
 * (`pruned`), so a plain run of their paths uses the path's own batch again.
 * A linked folder or pointer is left alone, never read or removed through. Returns the files removed.
 */
export function forgetNewest(targetDir: string, pruned: (kind: BulkKind, batch: string) => boolean): string[] {
  const folder = join(targetDir, POINTERS);
  if (isSymlinkSync(folder)) return [];
  const removed: string[] = [];
  for (const name of namesIn(folder)) {
    const file = join(folder, name);
    let record: Partial<NewestBatch>;
    try {
      record = JSON.parse(readOwnFile(file) ?? '{}') as Partial<NewestBatch>;
    } catch {
      // Not a pointer this version wrote (a link, a damaged file): the run that meets it says so.
      continue;
    }
    if (record.kind !== undefined && typeof record.batch === 'string' && pruned(record.kind, record.batch) && removeOwnFile(file)) removed.push(file);
  }
  return removed;
}
