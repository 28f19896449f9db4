/**
 * A response body as the service sent it (`parcels api`): JSON, or one NDJSON line with
 * `--output ndjson`; never a table (the body's shape is unknown). --jq filters a body, not an error's.
 */
import type { OutputFormat } from '../output-format.js';
import { listAs, recordAs } from '../present.js';
import type { PresentContext } from '../present.js';
import type { Source } from '../batches.js';
import { renderRecord } from '../render.js';

function rawFormat(ctx: PresentContext): Extract<OutputFormat, 'json' | 'ndjson'> {
  return ctx.outputFormat() === 'ndjson' ? 'ndjson' : 'json';
}

/** A body (through --jq when given). */
export async function presentBody(ctx: PresentContext, body: unknown, now: number): Promise<void> {
  const format = rawFormat(ctx);
  await recordAs(ctx, body, { now }, () => format);
}

/** The items of every page (`--paginate`): one NDJSON line each (through --jq when given). */
export async function presentBodies(ctx: PresentContext, items: Source, now: number): Promise<void> {
  await listAs(ctx, items, { now, stream: true }, () => 'ndjson');
}

/** Like gh api: an error answer's body is the answer asked for, printed as sent (the error itself goes to stderr). */
export async function presentErrorBody(ctx: PresentContext, body: unknown, now: number): Promise<void> {
  await renderRecord(ctx.io, body, { format: rawFormat(ctx), now });
}
