/**
 * The presenter: a command hands over what its result is (a record, a list or stream of items, a
 * success line) and this module chooses how it prints: --jq, JSON, NDJSON, CSV/TSV, a table, wide,
 * or nothing for people when a script reads the output. Commands never branch on --jq or on the
 * output format; the renderers (render.ts, list.ts, jq.ts) do the formatting. The other result
 * kinds are in present/ (a service's resources, a timeline, a raw body, a run's lines, a report of
 * checks), each loaded only by the commands that print it.
 */
import { pickFields } from './fields.js';
import type { JqFilter } from './jq.js';
import { isHumanFormat } from './output-format.js';
import type { OutputFormat } from './output-format.js';
import { renderLine, renderList, renderMessage, renderRecord } from './render.js';
import type { ListOptions, RecordOptions } from './render.js';
import type { Source } from './batches.js';
import type { IO } from './streams.js';
import type { ViewName } from './views/resources.js';

/** What the presenter reads of a command's context (the Context satisfies it). */
export interface PresentContext {
  readonly io: IO;
  readonly globals: { readonly quiet?: boolean | undefined };
  outputFormat(): OutputFormat;
  jq(): Promise<JqFilter | undefined>;
}

/** What a command says about its record: never the format, which is the user's (--output, --json, the profile). */
export type RecordShape = Omit<RecordOptions, 'format'>;
/** What a command says about its items: never the format. */
export type ListShape = Omit<ListOptions, 'format'>;

/**
 * One value (a record, a whole page, a response body): filtered by --jq (narrowed to --fields
 * first), else in the format. --jq implies the JSON format, so the format is the form without it.
 */
export async function presentRecord(ctx: PresentContext, data: unknown, opts: RecordShape): Promise<void> {
  await recordAs(ctx, data, opts, () => ctx.outputFormat());
}

/** How a list is read, beyond its items. */
export interface ListForm {
  /** The list never ends (a followed log): JSON prints as NDJSON lines, not an array that never closes. */
  endless?: boolean;
  /** The columns of rows a program reads (csv, a table piped) when --fields is not given. */
  rowFields?: string[];
}

/** Items, from an array or a stream: each filtered by --jq (narrowed to --fields first), else in the format. */
export async function presentList(ctx: PresentContext, items: Source, opts: ListShape & ListForm): Promise<{ count: number }> {
  const { endless, rowFields, ...shape } = opts;
  if (!endless && rowFields === undefined) return listAs(ctx, items, shape, () => ctx.outputFormat());
  const format = ctx.outputFormat();
  const shown = endless && format === 'json' ? 'ndjson' : format;
  const rows = shown === 'csv' || (shown === 'table' && !ctx.io.stdoutIsTTY);
  return listAs(ctx, items, { ...shape, fields: shape.fields ?? (rows ? rowFields : undefined) }, () => shown);
}

/**
 * A record a person reads as one line over a table of its rows (a scenario's run): JSON and --jq
 * get the record whole; the other formats its rows (narrowed to --fields), the line on stderr.
 */
export async function presentRecordRows(
  ctx: PresentContext,
  record: unknown,
  opts: { line: string; rows: readonly unknown[]; fields: string[] | undefined; now: number; view?: ViewName },
): Promise<void> {
  const format = ctx.outputFormat();
  if (format === 'json') {
    await recordAs(ctx, record, { now: opts.now }, () => format);
    return;
  }
  await renderMessage(ctx.io, opts.line, 'info');
  await renderList(ctx.io, opts.rows, { format, fields: opts.fields, now: opts.now, view: opts.view });
}

/**
 * presentRecord in the form a result kind (present/) chose from the user's format: --jq wins, and
 * then the format is not read (an --output that contradicts --jq fails where the format is read).
 */
export async function recordAs(ctx: PresentContext, data: unknown, opts: RecordShape, format: () => OutputFormat): Promise<void> {
  const jq = await ctx.jq();
  // jq.js (and its worker thread) is loaded only when --jq is given.
  if (jq !== undefined) await (await import('./jq.js')).renderJq(ctx.io, jq, pickFields(data, opts.fields));
  else await renderRecord(ctx.io, data, { ...opts, format: format() });
}

/** presentList in the form a result kind (present/) chose: --jq wins, as for recordAs. */
export async function listAs(ctx: PresentContext, items: Source, opts: ListShape, format: () => OutputFormat): Promise<{ count: number }> {
  const jq = await ctx.jq();
  if (jq === undefined) return renderList(ctx.io, items, { ...opts, format: format() });
  const { fields } = opts;
  return (await import('./jq.js')).renderJqStream(ctx.io, jq, fields === undefined ? items : picked(items, fields));
}

async function* picked(items: Source, fields: string[]): AsyncGenerator<unknown> {
  for await (const item of items) yield pickFields(item, fields);
}

/** A record whose one line says it all (a link): the record as JSON, else the line alone. */
export async function presentRecordOrLine(ctx: PresentContext, record: unknown, line: string, now: number): Promise<void> {
  const format = ctx.outputFormat();
  if (format === 'json') await recordAs(ctx, record, { now }, () => format);
  else await renderLine(ctx.io, line);
}

/** A success line on stderr (`✓ Logged in …`), left out with --quiet. */
export async function presentSuccess(ctx: PresentContext, text: string): Promise<void> {
  if (!ctx.globals.quiet) await renderMessage(ctx.io, text, 'success');
}

/** A write's success line, for people only: a script reading JSON, NDJSON or CSV gets the record alone. */
export async function presentWritten(ctx: PresentContext, text: string): Promise<void> {
  if (forPeople(ctx)) await presentSuccess(ctx, text);
}

/** Whether the output is read by people (tables, names, closing lines) rather than by a script. */
export function forPeople(ctx: PresentContext): boolean {
  return isHumanFormat(ctx.outputFormat());
}
