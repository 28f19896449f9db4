/**
 * The presenter's report kind (see ../present.ts), apart from it: the checklist measures text with the
 * table module, which a one-shot get or create never loads.
 */
import { renderChecklist } from '../checklist.js';
import type { ChecklistItem } from '../checklist.js';
import { recordAs } from '../present.js';
import type { PresentContext } from '../present.js';
import { renderList, renderMessage } from '../render.js';

/** A report of checks (doctor): its items as rows and as a checklist, and the closing line a person reads. */
export interface ReportOptions {
  rows: readonly unknown[];
  checklist: readonly ChecklistItem[];
  fields: string[] | undefined;
  now: number;
  /** Printed under the checklist, for people only (not with --quiet). */
  summary?: { text: string; kind: 'success' | 'warn' };
}

/** The report whole for scripts (JSON, NDJSON, --jq); one row per check for csv or --fields; a checklist for people. */
export async function presentReport(ctx: PresentContext, report: unknown, opts: ReportOptions): Promise<void> {
  const format = ctx.outputFormat();
  if (format === 'json' || format === 'ndjson') {
    await recordAs(ctx, report, { fields: opts.fields, now: opts.now }, () => format);
    return;
  }
  if (format === 'csv' || opts.fields !== undefined) {
    await renderList(ctx.io, opts.rows, { format, fields: opts.fields, now: opts.now });
    return;
  }
  await renderChecklist(ctx.io, opts.checklist);
  if (opts.summary !== undefined && !ctx.globals.quiet) await renderMessage(ctx.io, opts.summary.text, opts.summary.kind);
}
