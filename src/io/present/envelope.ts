/**
 * `--envelope` on a one-shot write (create, events add, attempts add): the service's data left as
 * it is, wrapped with what a script cannot read from it — whether the service made it now or
 * answered with its stored result of an earlier request with the same key, and the ETag the answer
 * carried. Always JSON (an NDJSON line with `--output ndjson`); --jq runs over the whole value.
 */
import { UsageError } from '../../errors.js';
import { isReplayed } from '../../schemas/headers.js';
import type { LineOutcome } from '../../schemas/line-outcome.js';
import { recordAs } from '../present.js';
import type { ResourceContext } from './resource.js';

export interface Envelope {
  /** The answer's `data`, exactly as the service sent it. */
  readonly data: unknown;
  /** In the words of bulk runs' result lines (src/schemas/line-outcome.ts). */
  readonly outcome: Extract<LineOutcome, 'created' | 'replayed'>;
  /** The answer's ETag header, verbatim (quotes included); null when it carried none. */
  readonly etag: string | null;
}

/** What the check reads: the flags that would ask for another form than the envelope. */
export interface EnvelopeContext {
  readonly globals: { readonly quiet?: boolean | undefined; readonly fields?: string | undefined; readonly output?: string | undefined };
}

/** Exit 2 before anything is sent, when another flag asks for a form the envelope is not. */
export function assertEnvelopeFlags(ctx: EnvelopeContext): void {
  const { quiet, fields, output } = ctx.globals;
  if (quiet) throw new UsageError('--envelope prints {data, outcome, etag}, which --quiet replaces with the id: leave out one of them', '--envelope');
  if (fields !== undefined) throw new UsageError('--fields does not apply to --envelope: pick values with --jq, e.g. --jq .data.entry_id', '--fields');
  // Like --jq, it implies JSON: only a format typed on the command line contradicts it.
  if (output !== undefined && output !== 'json' && output !== 'ndjson') throw new UsageError(`--envelope prints JSON and cannot be used with --output ${output}`, '--envelope');
}

/** A write's answer as the HTTP client returns it: the envelope's `data`, the headers (lower-case names), the ETag. */
export interface WriteAnswer {
  readonly data: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly etag?: string | undefined;
}

/**
 * The answer as an Envelope; `parcelId`, the parcel created or written to, is remembered for id
 * prefixes as any printed parcel is. The service says it replayed with `Idempotent-Replayed: true`
 * (the sandbox does; the spec shows no such header, so without it the outcome is `created`).
 */
export async function presentEnvelope(ctx: ResourceContext & EnvelopeContext, answer: WriteAnswer, parcelId: string | undefined): Promise<void> {
  if (parcelId !== undefined) await (await ctx.knownIds()).remember([parcelId]);
  const envelope: Envelope = { data: answer.data, outcome: isReplayed(answer.headers['idempotent-replayed']) ? 'replayed' : 'created', etag: answer.etag ?? null };
  const format = ctx.globals.output === 'ndjson' ? 'ndjson' : 'json';
  await recordAs(ctx, envelope, { now: await ctx.serviceNow() }, () => format);
}
