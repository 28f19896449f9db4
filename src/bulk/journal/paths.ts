import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** Where bulk journals live in the data directory: journals/<hash of target>/<batch>.ndjson. */

export const JOURNAL_SUFFIX = '.ndjson';

export function journalsRoot(dir: string): string {
  return join(dir, 'journals');
}

/** The journals of a target: journals/<hash of target>. */
export function targetJournals(dir: string, target: string): string {
  return join(journalsRoot(dir), createHash('sha256').update(target).digest('hex').slice(0, 16));
}

/** The file of a batch for a target: journals/<hash of target>/<batch>.ndjson. */
export function journalPath(dir: string, target: string, batch: string): string {
  return join(targetJournals(dir, target), `${encodeURIComponent(batch).replace(/^\./, '%2E')}${JOURNAL_SUFFIX}`);
}
