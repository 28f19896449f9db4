import type { Journal } from './journal/journal.js';
import type { CreatedIndexWriter } from './created-index/run.js';
import { indexingRecorder } from './created-index/run.js';
import { queued } from './line-worker.js';
import type { LineQueue, ResultLine, RunRecorder, SendItem } from './types.js';

/** What a run writes down as it goes: its journal, the created index (create) and, with --queue, the outbox. */

const decoder = new TextDecoder();

/** Records into a journal what the runner sends and learns. */
export function journalRecorder(journal: Journal): RunRecorder {
  return {
    sent(item) {
      const key = item.request.idempotencyKey;
      journal.recordSent({
        line: item.line,
        key,
        ...(item.identity === undefined || item.identity === key ? {} : { rid: item.identity }),
        method: item.request.method,
        path: item.request.path,
        body: decoder.decode(item.request.body),
        at: Date.now(),
        ...(item.parcel === undefined ? {} : { parcel: item.parcel }),
      });
    },
    flush: () => journal.flush(),
    done: (item, status, entryId) => journal.recordDone(item.identity ?? item.request.idempotencyKey, item.line, status, entryId, item.pair),
    rejected: (item, status, code) => journal.recordRejected(item.identity ?? item.request.idempotencyKey, item.line, status, code),
  };
}

export interface RunRecording {
  /** Undefined without a journal (benchmarks). */
  recorder: RunRecorder | undefined;
  /** --queue: where a line the outage stop keeps from being sent goes instead. */
  unsent: ((item: SendItem) => Promise<ResultLine>) | undefined;
}

/**
 * A bulk run's recorder: the journal's, the created index's beside it (when the run indexes what it
 * creates), and with a queue the lines the outage stop keeps go to the outbox and are marked queued
 * in the journal; the outbox is synced before the journal says so.
 */
export function runRecording(journal: Journal | undefined, index: CreatedIndexWriter | undefined, queue: LineQueue | undefined, journalBatch: string): RunRecording {
  const journaling = journal === undefined ? undefined : journalRecorder(journal);
  const recorder = journaling === undefined || index === undefined ? journaling : indexingRecorder(journaling, index);
  if (queue === undefined) return { recorder, unsent: undefined };
  return {
    recorder: recorder === undefined ? undefined : { ...recorder, flush: () => (queue.sync(), recorder.flush()) },
    async unsent(item) {
      await queue.add(item, journalBatch);
      journal?.recordQueued(item.identity ?? item.request.idempotencyKey, item.line);
      return queued(item.line);
    },
  };
}
