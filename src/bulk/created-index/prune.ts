import { closeSync, fdatasyncSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openOwnFile } from '../../config/own-file.js';
import { RECORD_BYTES, appendBatch, forEachRecordChunk, readBatches, recordsPath } from './file.js';

/**
 * What `batches prune` removes, the created index forgets: each removed journal's batch is marked
 * pruned in its target's `created.batches` (its records are ignored from then on, and its number is
 * never given again), and the records are rewritten without those of pruned batches — at once when
 * no run holds a journal of the target, else by the next prune.
 */

const JOURNAL_SUFFIX = '.ndjson';

/** `removed`: the files prune removed (journals and spools); returns how many batches the indexes forgot. */
export function forgetPrunedBatches(removed: readonly string[]): number {
  const byDir = new Map<string, Set<string>>();
  for (const path of removed) {
    const name = basename(path);
    if (!name.endsWith(JOURNAL_SUFFIX)) continue;
    const dir = dirname(path);
    const names = byDir.get(dir) ?? new Set<string>();
    names.add(decodeURIComponent(name.slice(0, -JOURNAL_SUFFIX.length)));
    byDir.set(dir, names);
  }
  let forgotten = 0;
  for (const [dir, names] of byDir) {
    const { live } = readBatches(dir);
    for (const batch of live.values()) {
      if (!names.has(batch.batch)) continue;
      appendBatch(dir, { n: batch.n, pruned: true });
      live.delete(batch.n);
      forgotten++;
    }
    if (!readdirSync(dir).some((file) => file.endsWith('.lock'))) rewriteRecords(dir, new Set(live.keys()));
  }
  return forgotten;
}

/** The records file again with only the records of `keep`: a temporary file, fsync'd, renamed over it. */
export function rewriteRecords(dir: string, keep: ReadonlySet<number>): void {
  const path = recordsPath(dir);
  const temporary = join(dir, `.created.idx.${process.pid}.prune`);
  const fd = openOwnFile(temporary, 'truncate');
  let dropped = 0;
  try {
    const out = Buffer.allocUnsafe(RECORD_BYTES * 16_384);
    forEachRecordChunk(dir, (chunk, count) => {
      let kept = 0;
      for (let i = 0; i < count; i++) {
        const at = i * RECORD_BYTES;
        if (!keep.has(chunk.readUInt16LE(at + 16))) {
          dropped++;
          continue;
        }
        chunk.copy(out, kept * RECORD_BYTES, at, at + RECORD_BYTES);
        kept++;
      }
      if (kept > 0) writeSync(fd, out, 0, kept * RECORD_BYTES);
    });
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (dropped === 0) rmSync(temporary, { force: true });
  else renameSync(temporary, path);
}
