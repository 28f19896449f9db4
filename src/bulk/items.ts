import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { Journal } from './journal/journal.js';
import { identityOf } from './journal/records.js';
import type { BuildContext } from './build.js';
import { buildLine, lineRequest } from './build.js';
import type { InputLine } from './input.js';
import { canonicalJson, requestKey } from './keys.js';
import type { LegacyJournals } from './legacy.js';
import type { Occurrences } from './occurrences.js';
import type { WorkItem } from './types.js';

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
  /** Confirmed requests no line of this input asks for any more, by the line they had: what an edited line created. */
  earlier: ReadonlyMap<number, string | undefined>;
  /** How many times each request was met so far: one table for the survey and the run (reset between). */
  occurrences: Occurrences;
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

/**
 * Reads the whole input once without sending: its content digest, and marks the confirmed
 * requests its lines still ask for (the others are what edited lines created).
 */
export async function surveyInput(lines: AsyncIterable<InputLine[]>, ctx: Pick<ItemContext, 'kind' | 'batch' | 'journal' | 'overrides' | 'unkeyed' | 'now' | 'occurrences'>): Promise<string> {
  const content = new ContentDigest();
  const occurrences = ctx.occurrences;
  for await (const chunk of lines) {
    for (const input of chunk) {
      content.add(input);
      const request = lineRequest(input, ctx);
      if (request.ok) ctx.journal?.done.see(requestKey(ctx.kind, ctx.batch, request.digest, occurrences.next(request.digest)));
    }
  }
  occurrences.reset();
  return content.digest();
}

/**
 * Lines are built (and journaled) this many at a time: a read chunk holds ~750 lines, and building
 * all of them before the first is sent kept the service idle for the first ~50 ms of a run.
 */
const BUILD_SLICE = 32;

export async function* workItems(lines: AsyncIterable<InputLine[]>, ctx: ItemContext, content: ContentDigest): AsyncGenerator<WorkItem[]> {
  const occurrences = ctx.occurrences;
  try {
    for await (const chunk of lines) {
      for (let at = 0; at < chunk.length; at += BUILD_SLICE) {
        yield chunk.slice(at, at + BUILD_SLICE).map((input) => {
          content.add(input);
          const item = workItem(input, ctx, occurrences);
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

function workItem(input: InputLine, ctx: ItemContext, occurrences: Occurrences): WorkItem {
  const line = input.line;
  const request = lineRequest(input, ctx);
  if (!request.ok) return { kind: 'invalid', line, field: request.field, message: request.message };
  const key = requestKey(ctx.kind, ctx.batch, request.digest, occurrences.next(request.digest));
  const journal = ctx.journal;
  if (journal?.done.has(key)) return { kind: 'replayed', line, entryId: journal.done.entryId(key) };
  const sent = journal?.previous.get(key)?.sent;
  if (sent !== undefined) {
    return { kind: 'send', line, parcel: sent.parcel, ignored: 0, journaled: true, identity: identityOf(sent), request: { method: 'POST', path: sent.path, body: Buffer.from(sent.body, 'utf8'), idempotencyKey: sent.key } };
  }
  const legacy = ctx.legacy?.lookup(line, input.bytes);
  if (legacy?.kind === 'done') {
    journal?.recordDone(key, line, 0, legacy.entryId);
    return { kind: 'replayed', line, entryId: legacy.entryId };
  }
  if (legacy?.kind === 'sent') {
    // Sent by the released version without an answer: resent under its old key and bytes, kept under the new identity.
    const old = legacy.record;
    return { kind: 'send', line, parcel: old.parcel, ignored: 0, journaled: false, identity: key, request: { method: 'POST', path: old.path, body: Buffer.from(old.body, 'utf8'), idempotencyKey: old.key } };
  }
  const built = buildLine(request, ctx);
  if (!built.ok) return { kind: 'invalid', line, field: built.field, message: built.message };
  const item: WorkItem = { kind: 'send', line, request: { ...built.request, idempotencyKey: key }, parcel: built.parcel, ignored: built.ignored, journaled: false };
  if (ctx.earlier.has(line)) item.earlier = ctx.earlier.get(line) ?? '';
  return item;
}
