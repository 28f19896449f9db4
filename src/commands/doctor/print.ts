import type { Context } from '../../context.js';
import { renderHeading, renderList, renderRecord } from '../../io/render.js';
import type { DoctorReport } from './report.js';

/**
 * The report: one object for json/ndjson; for people, the checks as a table, then the summary.
 * It holds no service codes, so no names are looked up (the report costs no extra request).
 */
export async function printReport(ctx: Context, report: DoctorReport): Promise<void> {
  const format = ctx.outputFormat();
  const now = ctx.now();
  if (format === 'json' || format === 'ndjson') {
    await renderRecord(ctx.io, report, { format, fields: ctx.fields(), now });
    return;
  }
  const { checks, ...summary } = report;
  await renderHeading(ctx.io, 'checks', true);
  await renderList(ctx.io, checks, { format, fields: ctx.fields(), now });
  await renderHeading(ctx.io, 'summary', false);
  await renderRecord(ctx.io, summary, { format, now });
}
