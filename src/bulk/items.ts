import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { EarlierLines } from './journal/earlier.js';
import type { Journal } from './journal/journal.js';
import { identityOf } from './journal/records.js';
import type { BuildContext } from './build.js';
import { buildLine, lineRequest } from './build.js';
import type { InputLine } from './input.js';
import { canonicalJson, requestKey } from './keys.js';
import type { LegacyJournals } from './legacy.js';
import type { Occurrences } from './occurrences.js';
import { pairTag } from './pairing.js';
import type { Repeats } from './repeats.js';
import type { WorkItem } from './types.js';
import type { LineSkips } from './created-index/run.js';

/**
 * What to do with each line of a batch: replay what an earlier run confirmed, resend what it left
 * uncertain with its journaled key and bytes, build the rest afresh. A line is found in the
 * journal by its request (see keys.ts), never by its number.
 */

export interface ItemContext extends BuildContext {
  /** The batch id the keys derive from. */
  batch: string;
  journal: Journal | undefined;
  legacy: LegacyJournals | undefined;
  /** Confirmed requests no line of this input asks for any more, by the line they had and their pairing tag: what an edited line created. */
  earlier: EarlierLines;
  /** How many times each request was met so far: one table for the survey and the run (reset between). */
  occurrences: Occurrences;
  /** Events and attempts: lines repeating an earlier line's parcel and status, found (and skipped with --once-per-parcel). */
  repeats?: Repeats | undefined;
  /** Lines skipped as matching what earlier batches on the target created (create --from). */
  skips?: LineSkips | undefined;
}

/**
 * A digest of the input's records as normalised, in order: the same for a file re-saved with other
 * quoting, line endings, a byte-order mark or column order; another for any changed line.
 */
export class ContentDigest {
  private readonly hash: Hash = createHash('sha256');

  add(input: InputLine): void {
    this.hash.update(input.record === undefined ? `!${input.bytes.toString('base64')}\n` : `${canonicalJson(input.record)}\n`);
  }

  digest(): string {
    return this.hash.digest('base64url');
  }
}

/** What an input holds compared with its batch's journal (surveyInput). */
export interface InputSurvey {
  /** Its content digest (ContentDigest). */
  content: string;
  /** Lines read (blank lines and a CSV header are not lines). */
  lines: number;
  /** Lines whose request the journal holds confirmed: replayed, never created twice. */
  matched: number;
  /** Lines whose request the journal holds sent but not confirmed (no answer, or refused): resent with their key and bytes. */
  unconfirmed: number;
  /** Of the other lines (new to the batch), those that are edited versions of the batch's line at the same number (pairing.ts). */
  edited: number;
  /** What the edited lines' earlier versions created. */
  earlier: EarlierLines;
}

/**
 * Reads the whole input once without sending: its content digest, and marks the confirmed
 * requests its lines still ask for (the others are what edited lines created); counts what matches.
 */
export async function surveyInput(lines: AsyncIterable<InputLine[]>, ctx: Pick<ItemContext, 'kind' | 'batch' | 'journal' | 'overrides' | 'unkeyed' | 'now' | 'occurrences'>): Promise<InputSurvey> {
  const content = new ContentDigest();
  const occurrences = ctx.occurrences;
  const journal = ctx.journal;
  let read = 0;
  let matched = 0;
  let unconfirmed = 0;
  /** The new lines' numbers and pairing tags, in pairs. */
  const fresh: number[] = [];
  for await (const chunk of lines) {
    for (const input of chunk) {
      read++;
      content.add(input);
      const request = lineRequest(input, ctx);
      if (!request.ok) continue;
      const key = requestKey(ctx.kind, ctx.batch, request.digest, occurrences.next(request.digest));
      if (journal?.done.see(key)) matched++;
      else if (journal?.previous.has(key)) unconfirmed++;
      else fresh.push(input.line, pairTag(ctx.kind, request));
    }
  }
  occurrences.reset();
  const earlier = journal?.done.earlierLines();
  let edited = 0;
  if (earlier !== undefined && earlier.size > 0) {
    for (let at = 0; at < fresh.length; at += 2) if (earlier.at(fresh[at] as number, fresh[at + 1] as number) !== undefined) edited++;
  }
  return { content: content.digest(), lines: read, matched, unconfirmed, edited, earlier: earlier ?? EarlierLines.none };
}

/**
 * Lines are built (and journaled) this many at a time: a read chunk holds ~750 lines, and building
 * all of them before the first is sent kept the service idle for the first ~50 ms of a run.
 */
const BUILD_SLICE = 32;

export async function* workItems(lines: AsyncIterable<InputLine[]>, ctx: ItemContext, content: ContentDigest): AsyncGenerator<WorkItem[]> {
  const occurrences = ctx.occurrences;
  let position = 0;
  try {
    for await (const chunk of lines) {
      for (let at = 0; at < chunk.length; at += BUILD_SLICE) {
        yield chunk.slice(at, at + BUILD_SLICE).map((input) => {
          content.add(input);
          const item = workItem(input, ctx, occurrences, position++);
          if (input.endLine !== undefined) item.endLine = input.endLine;
          return item;
        });
      }
    }
  } finally {
    // A million lines' counts are not kept through the journal's compaction.
    occurrences.reset(true);
  }
}

function workItem(input: InputLine, ctx: ItemContext, occurrences: Occurrences, position: number): WorkItem {
  const line = input.line;
  const request = lineRequest(input, ctx);
  if (!request.ok) return { kind: 'invalid', line, field: request.field, message: request.message };
  const occurrence = occurrences.next(request.digest);
  const key = requestKey(ctx.kind, ctx.batch, request.digest, occurrence);
  const created = ctx.kind === 'create' ? { digest: request.digest, occurrence, identity: input.identity } : undefined;
  const repeats = ctx.repeats;
  const repeated = repeats?.check(request);
  const journal = ctx.journal;
  if (journal?.done.has(key)) return { kind: 'replayed', line, entryId: journal.done.entryId(key) };
  const pair = pairTag(ctx.kind, request);
  const state = journal?.previous.get(key);
  if (state?.queued !== undefined) return { kind: 'queued', line };
  const sent = state?.sent;
  if (sent !== undefined) {
    return { kind: 'send', line, parcel: sent.parcel, ignored: 0, journaled: true, identity: identityOf(sent), pair, request: { method: 'POST', path: sent.path, body: Buffer.from(sent.body, 'utf8'), idempotencyKey: sent.key }, ...(created === undefined ? {} : { created }) };
  }
  const legacy = ctx.legacy?.lookup(line, input.bytes);
  if (legacy?.kind === 'done') {
    journal?.recordDone(key, line, 0, legacy.entryId, pair);
    return { kind: 'replayed', line, entryId: legacy.entryId };
  }
  if (legacy?.kind === 'sent') {
    // Sent by the released version without an answer: resent under its old key and bytes, kept under the new identity.
    const old = legacy.record;
    return { kind: 'send', line, parcel: old.parcel, ignored: 0, journaled: false, identity: key, pair, request: { method: 'POST', path: old.path, body: Buffer.from(old.body, 'utf8'), idempotencyKey: old.key } };
  }
  const skipped = ctx.skips?.skip(position, line);
  if (skipped !== undefined) return skipped;
  const built = buildLine(request, ctx);
  if (!built.ok) {
    // An invalid line is neither the first of its parcel and status nor a repeat of it.
    repeats?.forget(request, repeated);
    return { kind: 'invalid', line, field: built.field, message: built.message };
  }
  // A repeat that an earlier run sent keeps its outcome (above); one never sent is not sent now.
  if (repeated !== undefined && repeats?.report.oncePerParcel === true) return { kind: 'skipped', line, entryId: request.parcel, reason: repeats.skip(repeated) };
  const item: WorkItem = { kind: 'send', line, request: { ...built.request, idempotencyKey: key }, parcel: built.parcel, ignored: built.ignored, journaled: false, pair, ...(created === undefined ? {} : { created }) };
  const earlier = ctx.earlier.at(line, pair);
  if (earlier !== undefined) item.earlier = earlier.entryId ?? '';
  return item;
}
