import type { Context } from '../../context.js';
import { renderChecklist } from '../../io/checklist.js';
import { renderList, renderRecord } from '../../io/render.js';
import type { DoctorReport } from './report.js';

/**
 * The report: one object for json/ndjson; rows for csv or --fields; for people, a checklist (one
 * line per check, the fix beneath each warning or failure). It holds no service codes, so no names
 * are looked up (the report costs no extra request).
 */
export async function printReport(ctx: Context, report: DoctorReport): Promise<void> {
  const format = ctx.outputFormat();
  const now = ctx.now();
  if (format === 'json' || format === 'ndjson') {
    await renderRecord(ctx.io, report, { format, fields: ctx.fields(), now });
    return;
  }
  if (format === 'csv' || ctx.fields() !== undefined) {
    await renderList(ctx.io, report.checks, { format, fields: ctx.fields(), now });
    return;
  }
  await renderChecklist(
    ctx.io,
    report.checks.map((c) => ({ name: c.check, state: c.result, detail: c.detail, fix: c.fix })),
  );
}
