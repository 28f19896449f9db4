import { closeSync, statSync } from 'node:fs';
import { routePath } from '../../api/routes.js';
import type { BuildContext } from '../build.js';
import { lineRequest } from '../build.js';
import type { InputLine } from '../input.js';
import type { Journal } from '../journal/journal.js';
import { journalPath } from '../journal/paths.js';
import { readJournal } from '../journal/read.js';
import { requestDigest, requestKey } from '../keys.js';
import { Occurrences } from '../occurrences.js';
import { OUTBOX_BATCH } from '../outbox-batch.js';
import type { WorkItem } from '../types.js';
import type { MatchedLinesSetting } from '../../config/schema.js';
import type { IndexBatch } from './file.js';
import { RECORD_BYTES, RECORD_KIND, forEachRecordChunk, indexDir, openForRead, readBatches, readRecordAt, recordsPath } from './file.js';
import { ensureIndex } from './migrate.js';
import { LineTable, tagOfIdentity } from './table.js';
import { tagOfDigest } from '../tag-table.js';

/**
 * Which lines of a `create --from` input ask for requests earlier batches on this target created
 * (the target's index, read once), whose identity value was created before, or which wait in the
 * outbox. Reads the input once without sending; lines this batch's own journal holds are not
 * matched (they replay as already done).
 */

export interface MatchOptions {
  dataDir: string;
  target: string;
  /** This batch's journal batch (`create~<id>`): its records are not an earlier batch's. */
  journalBatch: string;
  /** The batch id the keys derive from. */
  batch: string;
  /** The input, read from its start (called once). */
  lines: () => AsyncIterable<InputLine[]>;
  build: BuildContext;
  /** This batch's journal: the requests it holds are this batch's own. */
  journal: Journal | undefined;
  /** The input's file (its size sizes the table), when it is one. */
  source?: string;
}

/** An earlier batch and the lines of this input that match what it created. */
export interface BatchMatch {
  batch: IndexBatch;
  /** The batch id as the summary prints it (`create~` dropped). */
  id: string;
  lines: number;
  /** Of them, lines in the same order as in that batch. */
  inOrder: number;
}

/** What happens to a line that matches what an earlier batch created. */
export type MatchedLinesChoice = MatchedLinesSetting;

export type SkippedItem = Extract<WorkItem, { kind: 'skipped' }>;

const MATCH = { request: 1, identity: 2, outbox: 3 } as const;

/** A file of which this share of the data lines match one earlier batch, in order, is a copy of it. */
export const COPY_SHARE = 0.95;

export class EarlierMatches {
  /** Per batch matched, most lines first. */
  readonly byBatch: BatchMatch[];
  /** The batch this input is a copy of (COPY_SHARE of its data lines match it, in order). */
  readonly copy: BatchMatch | undefined;

  constructor(
    /** Lines that build a request. */
    readonly dataLines: number,
    private readonly batches: ReadonlyMap<number, IndexBatch>,
    /** Per input position: what it matched (MATCH), and the record (or outbox capture) number. */
    private readonly kinds: Uint8Array | undefined,
    private readonly records: Uint32Array | undefined,
    private readonly byBatchNo: ReadonlyMap<number, { lines: number; inOrder: number }>,
    readonly identity: number,
    readonly queued: number,
    private readonly dir: string,
  ) {
    this.byBatch = [...byBatchNo]
      .map(([n, counts]) => ({ batch: batches.get(n) ?? { n, batch: `#${n}`, input: '?', at: 0 }, id: batchId(batches.get(n)?.batch ?? `#${n}`), ...counts }))
      .sort((a, b) => b.lines - a.lines || a.batch.n - b.batch.n);
    const top = this.byBatch.reduce<BatchMatch | undefined>((best, match) => (best === undefined || match.inOrder > best.inOrder ? match : best), undefined);
    this.copy = top !== undefined && dataLines > 0 && top.inOrder >= COPY_SHARE * dataLines ? top : undefined;
  }

  /** Lines that match requests earlier batches created (not identities, not the outbox): what needs a choice. */
  get matched(): number {
    return this.byBatch.reduce((sum, match) => sum + match.lines, 0);
  }

  private fd: number | undefined;

  /**
   * The skipped item for the line at input position `position`, or undefined to send it: an identity
   * created before and a line in the outbox always; a request an earlier batch created with `skip`.
   */
  skip(position: number, line: number, choice: MatchedLinesChoice): SkippedItem | undefined {
    const kind = this.kinds?.[position];
    if (kind === undefined || kind === 0) return undefined;
    const number = (this.records as Uint32Array)[position] as number;
    if (kind === MATCH.outbox) return { kind: 'skipped', line, entryId: undefined, reason: `queued in the outbox (entry ${number}): on its way, not sent again` };
    if (kind === MATCH.request && choice !== 'skip') return undefined;
    this.fd ??= openForRead(recordsPath(this.dir));
    const record = this.fd === undefined ? undefined : readRecordAt(this.fd, number);
    if (record === undefined) return undefined;
    const batch = this.batches.get(record.batch);
    const id = batchId(batch?.batch ?? `#${record.batch}`);
    const what = kind === MATCH.identity ? 'its identity value was created' : 'the same request was created';
    return { kind: 'skipped', line, entryId: record.entryId, matched: { batch: id, line: record.line }, reason: `${what} by batch ${id} (line ${record.line})` };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** `create~<id>` → `<id>`. */
function batchId(journalBatch: string): string {
  const at = journalBatch.indexOf('~');
  return at === -1 ? journalBatch : journalBatch.slice(at + 1);
}

/** Bytes a line of a typical export takes: sizes the table from the file's size up front. */
const BYTES_PER_LINE = 64;

/**
 * Reads the input once and the target's index once: what this run would refuse or skip as
 * matching earlier batches, without sending anything. Undefined when nothing earlier can match
 * (no index records of another batch and nothing queued in the outbox): the input is not read.
 */
export async function findEarlierMatches(opts: MatchOptions): Promise<EarlierMatches | undefined> {
  const dir = indexDir(opts.dataDir, opts.target);
  await ensureIndex(opts.dataDir, opts.target);
  const batches = readBatches(dir).live;
  const own = [...batches.values()].find((batch) => batch.batch === opts.journalBatch)?.n;
  const queued = await queuedCreates(opts.dataDir, opts.target);
  const others = [...batches.keys()].some((n) => n !== own);
  if (!others && queued.length === 0) return undefined;

  const expected = opts.source === undefined ? 0 : Math.ceil(fileSize(opts.source) / BYTES_PER_LINE);
  const requests = new LineTable(expected);
  let identities: LineTable | undefined;
  const keys = opts.journal !== undefined && (opts.journal.done.size > 0 || opts.journal.previous.size > 0) ? new Occurrences(opts.journal.done.size) : undefined;
  let positions = 0;
  let dataLines = 0;
  for await (const chunk of opts.lines()) {
    for (const input of chunk) {
      const position = positions++;
      const request = lineRequest(input, opts.build);
      if (!request.ok) continue;
      dataLines++;
      if (keys !== undefined && opts.journal !== undefined) {
        const key = requestKey(opts.build.kind, opts.batch, request.digest, keys.next(request.digest));
        if (opts.journal.done.has(key) || opts.journal.previous.has(key)) continue;
      }
      if (input.identity !== undefined && input.identity !== '') {
        identities ??= new LineTable();
        identities.add(...tagOfIdentity(input.identity), position);
      } else requests.add(...tagOfDigest(request.digest), position);
    }
  }
  keys?.reset(true);

  let kinds: Uint8Array | undefined;
  let records: Uint32Array | undefined;
  /** Per matched request: the earlier batch's number and line, for the counts (no read back per line). */
  let batchOf: Uint16Array | undefined;
  let lineOf: Uint32Array | undefined;
  const mark = (position: number, kind: number, number: number, batch = 0, line = 0): void => {
    kinds ??= new Uint8Array(positions);
    records ??= new Uint32Array(positions);
    kinds[position] = kind;
    records[position] = number;
    if (kind !== MATCH.request) return;
    batchOf ??= new Uint16Array(positions);
    lineOf ??= new Uint32Array(positions);
    batchOf[position] = batch;
    lineOf[position] = line;
  };
  let identity = 0;
  forEachRecordChunk(dir, (_chunk, count, first, view) => {
    for (let i = 0; i < count; i++) {
      const at = i * RECORD_BYTES;
      const kind = view.getUint8(at + 18);
      const batch = view.getUint16(at + 16, true);
      // This batch's own records, and those of a batch pruned since (or not yet named: a run writing its first ones).
      if (batch === own || !batches.has(batch)) continue;
      const table = kind === RECORD_KIND.request ? requests : kind === RECORD_KIND.identity ? identities : undefined;
      if (table === undefined) continue;
      const position = table.claim(view.getUint32(at, true), view.getUint32(at + 4, true));
      if (position === -1) continue;
      if (kind === RECORD_KIND.identity) identity++;
      mark(position, kind === RECORD_KIND.identity ? MATCH.identity : MATCH.request, first + i, batch, view.getUint32(at + 12, true));
    }
  });
  let inOutbox = 0;
  for (const entry of queued) {
    const position = requests.claim(...tagOfDigest(entry.digest));
    if (position === -1) continue;
    inOutbox++;
    mark(position, MATCH.outbox, entry.seq);
  }
  const byBatchNo = batchOf === undefined || lineOf === undefined ? new Map() : countByBatch(batchOf, lineOf);
  return new EarlierMatches(dataLines, batches, kinds, records, byBatchNo, identity, inOutbox, dir);
}

/** Per earlier batch: its matched lines, and how many of them keep that batch's order. */
function countByBatch(batchOf: Uint16Array, lineOf: Uint32Array): Map<number, { lines: number; inOrder: number }> {
  const counts = new Map<number, { lines: number; inOrder: number; last: number }>();
  for (let position = 0; position < batchOf.length; position++) {
    const batch = batchOf[position] as number;
    if (batch === 0) continue;
    const line = lineOf[position] as number;
    const count = counts.get(batch) ?? { lines: 0, inOrder: 0, last: -1 };
    count.lines++;
    if (line > count.last) {
      count.inOrder++;
      count.last = line;
    }
    counts.set(batch, count);
  }
  return counts;
}

/** The creates waiting in the target's outbox: their request digest and capture number. */
async function queuedCreates(dataDir: string, target: string): Promise<Array<{ digest: string; seq: number }>> {
  const read = await readJournal(journalPath(dataDir, target, OUTBOX_BATCH));
  const path = routePath('parcels.create');
  const queued: Array<{ digest: string; seq: number }> = [];
  for (const state of read.lines.values()) {
    const sent = state.sent;
    if (sent === undefined || state.rejected !== undefined || sent.method !== 'POST' || sent.path !== path) continue;
    let fields: unknown;
    try {
      fields = JSON.parse(sent.body);
    } catch {
      continue;
    }
    if (typeof fields === 'object' && fields !== null) queued.push({ digest: requestDigest('POST', path, fields as Record<string, unknown>), seq: sent.line });
  }
  return queued.sort((a, b) => a.seq - b.seq);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
