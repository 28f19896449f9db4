import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { WholeFileWriter } from '../../config/whole-file.js';
import { RECORD_BYTES, appendBatch, forEachRecordChunk, readBatches, recordsPath } from './file.js';
import { JOURNAL_SUFFIX } from '../journal/paths.js';

/**
 * What `batches prune` removes, the created index forgets: each removed journal's batch is marked
 * pruned in its target's `created.batches` (its records are ignored from then on, and its number is
 * never given again), and the records are rewritten without those of pruned batches — at once when
 * no run holds a journal of the target, else by the next prune.
 */

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

/** The records file again with only the records of `keep`: written whole (config/atomic.ts), renamed over it. */
export function rewriteRecords(dir: string, keep: ReadonlySet<number>): void {
  const records = WholeFileWriter.create(dir, 'created.idx');
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
      if (kept > 0) records.write(out.subarray(0, kept * RECORD_BYTES));
    });
  } catch (error) {
    records.discard();
    throw error;
  }
  if (dropped === 0) records.discard();
  else records.commit(recordsPath(dir));
}
