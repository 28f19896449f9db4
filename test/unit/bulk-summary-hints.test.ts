import { describe, expect, it } from 'vitest';
import { bulkRunOptions as options } from '../helpers/bulk-fixtures.js';
import type { ImportSummary } from '../../src/bulk/import.js';
import { resumeHint } from '../../src/bulk/summary/hints.js';
import { EXIT } from '../../src/errors.js';
import type { CommandLine } from '../../src/hint/hint.js';

/** The resume command after Ctrl-C repeats the user's command line, naming the batch where the line alone would not find it. */

const FLAGS = [
  { long: '--from', takesValue: true },
  { long: '--batch-id', takesValue: true },
  { long: '--new-batch', takesValue: false },
  { long: '--rate', takesValue: true },
] as const;

const line = (...words: string[]): CommandLine => ({ words, flags: FLAGS });

/** Interrupted after 3 lines created and 2 in flight abandoned, 5 never reached, of a CSV (its header read). */
const summary: ImportSummary = {
  created: 3, replayed: 0, alreadyDone: 0, queued: 0, skipped: 0, matched: 0, failed: 0, invalid: 0, notSent: 2, unreachable: 0, ignoredFields: 0,
  elapsedMs: 1000, rate: 5, cancelled: true, exitCode: EXIT.CANCELLED, maxBuffered: 0,
  batch: 'stdin-0123456789abcdef', edited: new Map(), input: { physical: 6, header: 1, blank: 0, continuation: 0 }, notReached: 5, repeats: undefined,
};

describe('the resume command after Ctrl-C', () => {
  it('a file: the same command line, as typed', () => {
    expect(resumeHint(options('depot.csv'), summary, line('create', '--from', 'depot.csv', '--rate', '20/s'))).toBe(
      'run `parcels create --from depot.csv --rate 20/s` to send the 7 lines not yet sent (the 4 done are not sent again)',
    );
  });

  it('standard input without --batch-id: the same input again, with --batch-id naming its batch', () => {
    expect(resumeHint(options('-'), summary, line('create', '--from', '-'))).toBe(
      'pipe the same input to `parcels create --from - --batch-id stdin-0123456789abcdef` to send the 7 lines not yet sent (the 4 done are not sent again)',
    );
  });

  it('--new-batch: replaced by --batch-id, so the run resumes that batch instead of starting another', () => {
    expect(resumeHint(options('depot.csv', { newBatch: true }), summary, line('create', '--from', 'depot.csv', '--new-batch'))).toBe(
      'run `parcels create --from depot.csv --batch-id stdin-0123456789abcdef` to send the 7 lines not yet sent (the 4 done are not sent again)',
    );
  });
});
