/**
 * The presenter: a command hands over what its result is (a record, a list or stream of items, a
 * success line) and this module chooses how it prints: --jq, JSON, NDJSON, CSV/TSV, a table, wide,
 * or nothing for people when a script reads the output. Commands never branch on --jq or on the
 * output format for these; the renderers below (render.ts, list.ts, jq.ts) do the formatting.
 */
import { pickFields } from './fields.js';
import type { JqFilter } from './jq.js';
import { isHumanFormat } from './output-format.js';
import type { OutputFormat } from './output-format.js';
import { renderList, renderMessage, renderRecord } from './render.js';
import type { ListOptions, RecordOptions } from './render.js';
import type { Source } from './batches.js';
import { writeOut } from './streams.js';
import type { IO } from './streams.js';

/** What the presenter reads of a command's context (the Context satisfies it). */
export interface PresentContext {
  readonly io: IO;
  readonly globals: { readonly quiet?: boolean | undefined };
  outputFormat(): OutputFormat;
  jq(): Promise<JqFilter | undefined>;
}

/** The format is the user's (--output, --json, the profile) unless the result has a form of its own. */
type Formatted<T extends { format: OutputFormat }> = Omit<T, 'format'> & { format?: OutputFormat };

/**
 * One value (a record, a whole page, a response body): filtered by --jq (narrowed to --fields
 * first), else in the format. --jq implies the JSON format, so the format is the form without it.
 */
export async function presentRecord(ctx: PresentContext, data: unknown, opts: Formatted<RecordOptions>): Promise<void> {
  const jq = await ctx.jq();
  // jq.js (and its worker thread) is loaded only when --jq is given.
  if (jq !== undefined) await (await import('./jq.js')).renderJq(ctx.io, jq, pickFields(data, opts.fields));
  else await renderRecord(ctx.io, data, { ...opts, format: opts.format ?? ctx.outputFormat() });
}

/** Items, from an array or a stream: each filtered by --jq (narrowed to --fields first), else as `opts.format` lists them. */
export async function presentList(ctx: PresentContext, items: Source, opts: Formatted<ListOptions>): Promise<{ count: number }> {
  const jq = await ctx.jq();
  if (jq === undefined) return renderList(ctx.io, items, { ...opts, format: opts.format ?? ctx.outputFormat() });
  const { fields } = opts;
  return (await import('./jq.js')).renderJqStream(ctx.io, jq, fields === undefined ? items : picked(items, fields));
}

async function* picked(items: Source, fields: string[]): AsyncGenerator<unknown> {
  for await (const item of items) yield pickFields(item, fields);
}

/** A record whose one line says it all (a link): the record as JSON, else the line alone. */
export async function presentRecordOrLine(ctx: PresentContext, record: unknown, line: string, now: number): Promise<void> {
  const format = ctx.outputFormat();
  if (format === 'json') await presentRecord(ctx, record, { format, now });
  else await writeOut(ctx.io.stdout, `${line}\n`);
}

/** A success line on stderr (`✓ Logged in …`), left out with --quiet. */
export async function presentSuccess(ctx: PresentContext, text: string): Promise<void> {
  if (!ctx.globals.quiet) await renderMessage(ctx.io, text, 'success');
}

/** A write's success line, for people only: a script reading JSON, NDJSON or CSV gets the record alone. */
export async function presentWritten(ctx: PresentContext, text: string): Promise<void> {
  if (isHumanFormat(ctx.outputFormat())) await presentSuccess(ctx, text);
}

/** Whether the output is read by people (tables, names, closing lines) rather than by a script. */
export function forPeople(ctx: PresentContext): boolean {
  return isHumanFormat(ctx.outputFormat());
}
