import { rememberForCompletion } from '../args/couriers.js';
import type { Context } from '../context.js';
import { EXIT, ReportedFailure } from '../errors.js';
import { sameCommand } from '../hint/hint.js';
import { styles } from '../io/colour.js';
import { closest } from '../schemas/did-you-mean.js';
import { assertPresentable } from '../io/present/kinds.js';
import { RUN_LINES } from '../io/present/run.js';
import { sanitize } from '../io/sanitize.js';
import { writeOut } from '../io/streams.js';
import { isRecord } from '../schemas/record.js';
import { explainRefusal, importSource } from './run-input.js';
import type { BulkRunOptions } from './flags.js';
import { runImport } from './import.js';
import { journalTarget } from './target.js';
import type { BulkKind, WorkItem } from './types.js';

/**
 * `--check` with `--from`: the whole input read and built as a run would (the same work items:
 * refusals of the batch, invalid lines, lines already done or skipped), each create line's courier
 * checked against the organisation's couriers with one read, and nothing journaled or sent. The
 * lines that would not be sent go to stdout with their numbers, the summary to stderr; exit 2 when
 * any line would not be sent.
 */

export interface CheckReport {
  /** Lines read (records). */
  lines: number;
  wouldSend: number;
  alreadyDone: number;
  /** Not sent on purpose: they match what an earlier batch created, or a rule leaves them out. */
  skipped: number;
  /** In the outbox from an earlier run (`--queue`): on their way. */
  queued: number;
  /** Lines a run would not send, in input order: invalid, or naming a courier the organisation does not have. */
  problems: { line: number; message: string }[];
  unknownCourier: number;
}

/**
 * Classifies the work items of an input. `couriers` is asked once, at the first create line that
 * would be sent: a file with nothing to send costs no request.
 */
export async function checkItems(items: AsyncIterable<readonly WorkItem[]>, kind: BulkKind, couriers: () => Promise<readonly string[]>): Promise<CheckReport> {
  const report: CheckReport = { lines: 0, wouldSend: 0, alreadyDone: 0, skipped: 0, queued: 0, problems: [], unknownCourier: 0 };
  let known: ReadonlySet<string> | undefined;
  let codes: readonly string[] = [];
  for await (const chunk of items) {
    for (const item of chunk) {
      report.lines++;
      if (item.kind === 'invalid') report.problems.push({ line: item.line, message: item.field === '' ? item.message : `${item.field} ${item.message}` });
      else if (item.kind === 'replayed') report.alreadyDone++;
      else if (item.kind === 'skipped') report.skipped++;
      else if (item.kind === 'queued') report.queued++;
      else {
        const courier = kind === 'create' ? courierOf(item.request.body) : undefined;
        if (courier !== undefined && known === undefined) {
          codes = await couriers();
          known = new Set(codes);
        }
        if (courier !== undefined && known !== undefined && !known.has(courier)) {
          report.unknownCourier++;
          const meant = closest(courier, codes);
          const hint = meant === undefined ? `your organisation's couriers: ${codes.join(', ')}` : `did you mean ${meant}?`;
          report.problems.push({ line: item.line, message: `courier "${courier}" is not one of your organisation's couriers; ${hint}` });
        } else report.wouldSend++;
      }
    }
  }
  return report;
}

const decoder = new TextDecoder();

function courierOf(body: Uint8Array): string | undefined {
  const value: unknown = JSON.parse(decoder.decode(body));
  return isRecord(value) && typeof value.courier === 'string' ? value.courier : undefined;
}

export async function runCheck(opts: BulkRunOptions, ctx: Context): Promise<void> {
  await assertPresentable(ctx, RUN_LINES);
  const target = await journalTarget(ctx);
  const source = await importSource(opts, ctx, target);
  let report: CheckReport | undefined;
  const couriers = async (): Promise<readonly string[]> => (await rememberForCompletion(ctx, (await (await ctx.api()).route('couriers.list', { signal: ctx.signal })).data)).map((c) => c.code);
  let batch: string;
  try {
    const summary = await runImport({
      ...source,
      send: () => Promise.reject(new Error('--check sends nothing')),
      emit: () => undefined,
      inspect: async (items) => {
        report = await checkItems(items, opts.kind, couriers);
      },
      signal: ctx.signal,
    });
    batch = summary.batch;
  } catch (error) {
    throw explainRefusal(error, opts, ctx);
  }
  if (report === undefined) throw new Error('the check read no input');
  await writeOut(ctx.io.stdout, report.problems.map((p) => `line ${p.line}: ${sanitize(p.message)}\n`).join(''));
  await writeOut(ctx.io.stderr, checkSummary(report, opts, batch, ctx));
  if (report.problems.length > 0) throw new ReportedFailure(EXIT.USAGE);
}

function checkSummary(report: CheckReport, opts: BulkRunOptions, batch: string, ctx: Context): string {
  const s = styles(ctx.io.stderrColour);
  const parts = [`${report.wouldSend} would be sent`];
  if (report.alreadyDone > 0) parts.push(`${report.alreadyDone} already done`);
  if (report.skipped > 0) parts.push(`${report.skipped} skipped`);
  if (report.queued > 0) parts.push(`${report.queued} queued in the outbox`);
  const invalid = report.problems.length - report.unknownCourier;
  if (report.problems.length > 0) {
    const why = [invalid > 0 ? `${invalid} invalid` : undefined, report.unknownCourier > 0 ? `${report.unknownCourier} with an unknown courier` : undefined].filter((part) => part !== undefined);
    parts.push(`${report.problems.length} would not (${why.join(', ')})`);
  }
  const head = report.problems.length > 0 ? s.yellow('! ') : s.green('✓ ');
  let text = `${head}${report.lines} lines checked: ${parts.join(', ')}; nothing was sent (batch ${sanitize(batch)})\n`;
  const run = sameCommand(ctx.commandLine, { drop: ['--check'] });
  const file = opts.from === '-' ? 'the input' : opts.from;
  const hint = report.problems.length > 0 ? `fix the lines listed in ${file}, then \`${run}\` sends it` : `\`${run}\` sends it`;
  text += s.dim(`Hint: ${sanitize(hint)}`) + '\n';
  return text;
}
