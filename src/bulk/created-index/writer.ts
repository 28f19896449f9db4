import { closeSync, mkdirSync, writeSync } from 'node:fs';
import type { IndexRecord } from './file.js';
import { RECORD_BYTES, RECORD_KIND, appendBatch, encodeRecord, indexDir, openRecordsForAppend, readBatches } from './file.js';
import { tagOfIdentity } from './table.js';
import { tagOfDigest } from '../tag-table.js';

/**
 * Keeps a batch's confirmed creates in its target's index as they are confirmed: buffered, written
 * with the journal's writes (`flush`), and on `close`. The batch gets its number (and a line in
 * `created.batches` saying when it ran) with its first record.
 */

export interface CreatedRequest {
  /** The request digest (src/bulk/keys.ts requestDigest). */
  digest: string;
  /** Which occurrence of it in the batch (0-based). */
  occurrence: number;
  /** The line's --id-column value, when it has one. */
  identity: string | undefined;
  line: number;
  entryId: string | undefined;
}

const BUFFERED = 256;

export class CreatedIndexWriter {
  private readonly dir: string;
  private fd: number | undefined;
  private batchNo: number | undefined;
  private readonly pending = Buffer.alloc(RECORD_BYTES * BUFFERED);
  private count = 0;

  constructor(
    dataDir: string,
    target: string,
    private readonly batch: { batch: string; input: string },
    private readonly nowMs: () => number = Date.now,
  ) {
    this.dir = indexDir(dataDir, target);
  }

  add(created: CreatedRequest): void {
    const batch = this.batchNo ?? this.start();
    const at = Math.floor(this.nowMs() / 1000);
    const base = { occurrence: created.occurrence, batch, line: created.line, at, entryId: created.entryId };
    this.push({ kind: RECORD_KIND.request, ...pair(tagOfDigest(created.digest)), ...base });
    if (created.identity !== undefined && created.identity !== '') this.push({ kind: RECORD_KIND.identity, ...pair(tagOfIdentity(created.identity)), ...base, occurrence: 0 });
  }

  flush(): void {
    if (this.count === 0) return;
    this.fd ??= openRecordsForAppend(this.dir);
    writeSync(this.fd, this.pending, 0, this.count * RECORD_BYTES);
    this.count = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private push(record: IndexRecord): void {
    if (this.count === BUFFERED) this.flush();
    encodeRecord(record, this.pending, this.count * RECORD_BYTES);
    this.count++;
  }

  /** The batch's number: the one it has, or the next free one; its run is noted in `created.batches`. */
  private start(): number {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const batches = readBatches(this.dir);
    const known = [...batches.live.values()].find((batch) => batch.batch === this.batch.batch);
    const n = known?.n ?? batches.next;
    appendBatch(this.dir, { n, batch: this.batch.batch, input: this.batch.input, at: this.nowMs() });
    this.batchNo = n;
    return n;
  }
}

function pair([high, low]: [number, number]): { high: number; low: number } {
  return { high, low };
}
