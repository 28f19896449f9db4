import { closeSync, createReadStream, existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openOwnFile } from '../../config/own-file.js';
import type { BuildContext } from '../build.js';
import { lineRequest } from '../build.js';
import { inputFormat } from '../input-format.js';
import { readInput } from '../input.js';
import type { DoneKeys } from '../journal/done.js';
import type { JournalRecord } from '../journal/records.js';
import { readJournal } from '../journal/read.js';
import { hashFile, requestDigest, requestKey } from '../keys.js';
import { Occurrences } from '../occurrences.js';
import type { IndexBatch, IndexRecord } from './file.js';
import { RECORD_BYTES, RECORD_KIND, appendBatch, encodeRecord, indexDir, recordsPath } from './file.js';
import { tagOfDigest } from '../tag-table.js';
import { JOURNAL_SUFFIX } from '../journal/paths.js';

/**
 * The first time a target's index is needed it is built from the journals already there, so a
 * target with history is covered: a journal's confirmed creates from its `sent` records (their
 * bytes give the request), and those a compaction packed away from its input file, read again when
 * it still has the bytes the batch last read. Creates of a compacted batch whose file has changed
 * since, or that ran with flags that changed each line (`--courier`), cannot be recovered: their
 * request is no longer anywhere. The records are written to a file of their own and linked into
 * place only if no other run did it first.
 */

/** Identical requests in one batch tried, to find a journaled key's occurrence. */
const MAX_OCCURRENCES = 10_000;

export async function ensureIndex(dataDir: string, target: string): Promise<void> {
  const dir = indexDir(dataDir, target);
  if (existsSync(recordsPath(dir))) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.created.idx.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openOwnFile(temporary, 'truncate');
  const batches: IndexBatch[] = [];
  try {
    const out = new RecordOut(fd);
    for (const name of readdirSync(dir).filter((file) => file.endsWith(JOURNAL_SUFFIX))) {
      const n = batches.length + 1;
      const batch = await migrateJournal(join(dir, name), n, out);
      if (batch !== undefined) batches.push(batch);
    }
    out.flush();
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, recordsPath(dir));
  } catch (error) {
    // Another run built it first: theirs is the index.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return;
  } finally {
    rmSync(temporary, { force: true });
  }
  for (const batch of batches) appendBatch(dir, batch);
}

class RecordOut {
  private readonly buffer = Buffer.alloc(RECORD_BYTES * 1024);
  private count = 0;
  written = 0;

  constructor(private readonly fd: number) {}

  push(record: IndexRecord): void {
    if (this.count === 1024) this.flush();
    encodeRecord(record, this.buffer, this.count * RECORD_BYTES);
    this.count++;
    this.written++;
  }

  flush(): void {
    if (this.count > 0) writeSync(this.fd, this.buffer, 0, this.count * RECORD_BYTES);
    this.count = 0;
  }
}

async function migrateJournal(path: string, n: number, out: RecordOut): Promise<IndexBatch | undefined> {
  const read = await readJournal(path);
  const meta = read.meta;
  if (meta === undefined || meta.kind !== 'create' || meta.v < 2 || read.done.size === 0) return undefined;
  const name = meta.batch.slice(meta.batch.indexOf('~') + 1);
  const at = Math.floor((read.lastRun?.at ?? meta.created) / 1000);
  const before = out.written;
  const add = (digest: string, occurrence: number, line: number, entryId: string | undefined): void => {
    const [high, low] = tagOfDigest(digest);
    out.push({ kind: RECORD_KIND.request, high, low, occurrence, batch: n, line, at, entryId });
  };
  // A request resent after the compaction is in both: its sent record names it, the input is read for the others.
  const sent = await fromSent(path, name, read.done, add, read.doneFile !== undefined);
  if (read.doneFile !== undefined) await fromInput(meta.input, read.lastInput?.sha256, name, read.done, add, sent);
  return out.written === before ? undefined : { n, batch: meta.batch, input: meta.input, at: at * 1000 };
}

type Add = (digest: string, occurrence: number, line: number, entryId: string | undefined) => void;

/** A compacted journal's creates, from its input when the file still has the bytes the batch last read. */
async function fromInput(input: string, sha256: string | undefined, batch: string, done: DoneKeys, add: Add, sent: ReadonlySet<string>): Promise<void> {
  if (input === '-' || sha256 === undefined || !existsSync(input)) return;
  let format;
  try {
    format = inputFormat(input, undefined);
    if ((await hashFile(input)) !== sha256) return;
  } catch {
    return;
  }
  const ctx: BuildContext = { kind: 'create', overrides: {}, now: () => Math.floor(Date.now() / 1000) };
  const occurrences = new Occurrences(done.size);
  for await (const chunk of readInput(input, format, { bareIds: false, name: input })) {
    for (const line of chunk) {
      const request = lineRequest(line, ctx);
      if (!request.ok) continue;
      const occurrence = occurrences.next(request.digest);
      const key = requestKey('create', batch, request.digest, occurrence);
      if (done.has(key) && !sent.has(key)) add(request.digest, occurrence, line.line, done.entryId(key));
    }
  }
}

/** The creates a journal's `sent` records name, confirmed by a later record; `keep`: returns their keys. */
async function fromSent(path: string, batch: string, done: DoneKeys, add: Add, keep: boolean): Promise<Set<string>> {
  const keys = new Set<string>();
  let rest = '';
  for await (const chunk of createReadStream('', { fd: openOwnFile(path, 'read'), encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const text = rest + (chunk as string);
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch {
        continue;
      }
      if (record.t !== 'sent' || record.rid !== undefined || !done.has(record.key)) continue;
      let fields: unknown;
      try {
        fields = JSON.parse(record.body);
      } catch {
        continue;
      }
      if (typeof fields !== 'object' || fields === null) continue;
      const digest = requestDigest(record.method, record.path, fields as Record<string, unknown>);
      for (let occurrence = 0; occurrence < MAX_OCCURRENCES; occurrence++) {
        if (requestKey('create', batch, digest, occurrence) !== record.key) continue;
        add(digest, occurrence, record.line, done.entryId(record.key));
        if (keep) keys.add(record.key);
        break;
      }
    }
  }
  return keys;
}
