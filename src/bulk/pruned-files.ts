import { basename, dirname } from 'node:path';
import { removeOwnFile } from '../config/own-file.js';
import { journalBatchOf } from './batch.js';
import { forgetNewest } from './newest.js';
import { resultsFilePath } from './summary/results-file.js';
import { JOURNAL_SUFFIX } from './journal/paths.js';

/**
 * What `batches prune` removes with a batch's journal: its latest run's results file
 * (`<batch>.results.jsonl`) and the newest-batch pointers naming the batch, so no file of a pruned
 * batch is left behind. Regular files only: a link is never followed or removed through.
 */

/** `removed`: the files prune removed (journals and spools). */
export function removeBatchFiles(removed: readonly string[]): { results: number; pointers: number } {
  let results = 0;
  const byTarget = new Map<string, Set<string>>();
  for (const path of removed) {
    const name = basename(path);
    if (!name.endsWith(JOURNAL_SUFFIX)) continue;
    if (removeOwnFile(resultsFilePath(path))) results++;
    const batches = byTarget.get(dirname(path)) ?? new Set<string>();
    batches.add(decodeURIComponent(name.slice(0, -JOURNAL_SUFFIX.length)));
    byTarget.set(dirname(path), batches);
  }
  let pointers = 0;
  for (const [dir, batches] of byTarget) pointers += forgetNewest(dir, (kind, batch) => batches.has(journalBatchOf(kind, batch))).length;
  return { results, pointers };
}
