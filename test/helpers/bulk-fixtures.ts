import type { BulkRunOptions } from '../../src/bulk/flags.js';
import type { Retried } from '../../src/api/core/retry.js';
import { retryPiece } from '../../src/api/core/retry.js';
import type { Send, SendRequest, SendResponse, WorkItem } from '../../src/bulk/types.js';

/** Fixtures of the bulk engine's unit tests: work items, their answers, and a run's options. */

/** A create to send for `line` (its body names the line: `lineOf` reads it back). */
export function sendItem(line: number): WorkItem {
  return {
    kind: 'send',
    line,
    parcel: undefined,
    ignored: 0,
    journaled: false,
    request: { method: 'POST', path: '/deliveries/v1/parcels', body: Buffer.from(`{"n":${line}}`), idempotencyKey: `key-${line}-abcdef` },
  };
}

/** The items as the engine pulls them; `pulled` counts how many it took. */
export async function* itemsOf(list: WorkItem[], pulled?: { count: number }): AsyncGenerator<WorkItem> {
  for (const item of list) {
    if (pulled) pulled.count++;
    yield item;
  }
}

/** The line a request of `sendItem` was for. */
export const lineOf = (req: SendRequest): number => Number(/"n":(\d+)/.exec(Buffer.from(req.body).toString())?.[1]);

/** The service's 201 for a line. */
export const created = (line: number): SendResponse => ({ status: 201, entryId: `id-${line}`, replayed: false });

/** `create --from FILE` with every flag at its default, and `more`. */
export const bulkRunOptions = (from: string, more: Partial<BulkRunOptions> = {}): BulkRunOptions => ({
  kind: 'create',
  from,
  format: undefined,
  delimiter: undefined,
  columns: { kind: 'create', ignore: [], ignoreUnknown: false, idColumn: undefined },
  concurrency: 8,
  rate: undefined,
  batchId: undefined,
  continueBatch: false,
  newBatch: false,
  overrides: {},
  unkeyed: [],
  defaults: {},
  oncePerParcel: false,
  check: false,
  queue: false,
  matchedLines: undefined,
  ...more,
});

/** One attempt of a fake service. */
export type Attempt = (request: SendRequest, signal: AbortSignal | undefined) => Promise<SendResponse>;

/** A fake service's attempt as the engine's Send: the one retry piece over it, counting as the run says (as ApiClient's `send` does over its chain). */
export function retried(attempt: Attempt): Send {
  const step = retryPiece((call: Retried & { request: SendRequest; signal: AbortSignal | undefined }) => attempt(call.request, call.signal), (_call, response) => response);
  return (request, run) => step({ attempt: 1, counting: run.counting, retry: run.retry, request, signal: run.abandon });
}
