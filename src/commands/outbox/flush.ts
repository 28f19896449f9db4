import { engineClient, engineRetries } from '../../bulk/command.js';
import { journalTarget } from '../../bulk/target.js';
import { EXIT, ReportedFailure } from '../../errors.js';
import { RUN_LINES, runLines } from '../../io/present/run.js';
import { assertPresentable } from '../../io/present/kinds.js';
import type { outboxCommands } from '../../definitions/outbox.js';
import { defineCommand } from '../../command-kit/types.js';
import type { OutboxEntry } from '../../bulk/outbox.js';
import type { FlushSummary } from '../../bulk/outbox-flush.js';
import { listOutbox } from '../../bulk/outbox.js';
import { flushOutbox } from '../../bulk/outbox-flush.js';
import { resultText } from '../../bulk/report.js';
import { renderRunSummary } from '../../bulk/summary/render.js';
import { dataDir } from '../../config/paths.js';
import { printedIds } from '../../config/known-ids.js';
import type { ResultLine } from '../../bulk/types.js';
import { entrySummary } from '../../bulk/outbox-describe.js';
import { otherCommand } from '../../hint/hint.js';
import type { Context } from '../../context.js';

/**
 * Sends the outbox in capture order with the captured keys and bytes. Piped or with --json: one
 * NDJSON result per entry on stdout; on a terminal: one line per entry saying what it was and what
 * happened. A summary on stderr counts what was sent by kind. Stops at the first entry the service
 * still cannot take (the rest wait for the next flush); exits non-zero while anything is left.
 */
export default defineCommand<typeof outboxCommands.outboxFlush, Record<string, never>>({
  async parse(_input, ctx) {
    await assertPresentable(ctx, RUN_LINES);
    return {};
  },

  async run(_options, ctx) {
    const place = { dir: dataDir(ctx.env), target: await journalTarget(ctx) };
    const entries = new Map((await listOutbox(place)).map((entry) => [entry.seq, entry]));
    const show = runLines(ctx);
    const created: OutboxEntry[] = [];
    const printed = printedIds();
    const emit = async (result: ResultLine): Promise<void> => {
      const entry = entries.get(result.line);
      if (result.outcome === 'created' && entry !== undefined) created.push(entry);
      if (result.ok) printed.add(result.entry_id);
      await show({ json: resultText(result), text: () => resultLine(result, entry), quietId: result.ok ? result.entry_id : undefined });
    };
    const retries = await engineRetries(ctx);
    const client = await engineClient(ctx, 1);
    try {
      const summary = await flushOutbox(place, { send: client.send, gate: client.gate, emit, retries, signal: ctx.signal, abandon: ctx.claimSecondSignal() });
      await printed.rememberIn(await ctx.knownIds());
      await renderFlushSummary(ctx, summary, created);
      if (summary.exitCode !== EXIT.OK) throw new ReportedFailure(summary.exitCode);
      if (summary.left > 0) throw new ReportedFailure(EXIT.UNAVAILABLE);
    } finally {
      await client.close();
    }
  },
});

/** `✓ #2 events add 3f1c… status 2 in_transit: sent` / `✗ #3 create …: rejected 422 validation_failed: …`. */
function resultLine(result: ResultLine, entry: OutboxEntry | undefined): string {
  const what = `#${result.line}${entry === undefined ? '' : ` ${entrySummary(entry)}`}`;
  if (result.ok) return `✓ ${what}: ${result.outcome === 'already_done' || result.outcome === 'replayed' ? 'already sent' : 'sent'}${entry?.command === 'create' && result.entry_id !== undefined ? `, parcel ${result.entry_id}` : ''}`;
  const error = result.error;
  const answer = error?.status === undefined ? 'not sent' : `rejected ${error.status}`;
  return `✗ ${what}: ${answer}${error === undefined ? '' : ` ${error.code}: ${error.message}`}`;
}

const KIND_NAMES: Readonly<Record<string, [string, string]>> = {
  create: ['parcel', 'parcels'],
  'events add': ['status event', 'status events'],
  'attempts add': ['delivery attempt', 'delivery attempts'],
};

/** The run summary (summary/render.ts), with what was created by kind, what still waits, and the command for each. */
async function renderFlushSummary(ctx: Context, summary: FlushSummary, created: readonly OutboxEntry[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const entry of created) counts.set(entry.command, (counts.get(entry.command) ?? 0) + 1);
  const kinds = [...counts].map(([command, n]) => {
    const [one, many] = KIND_NAMES[command] ?? [command, command];
    return `${n} ${n === 1 ? one : many}`;
  });
  const rejected = summary.failed - summary.left + summary.notTried;
  await renderRunSummary(ctx.io, {
    counts: summary,
    outbox: { kinds, left: summary.left, notTried: summary.notTried },
    hints: [
      summary.left > 0 ? `run \`${otherCommand(ctx.commandLine, ['outbox', 'flush'])}\` again once the service answers` : undefined,
      rejected > 0 ? `\`${otherCommand(ctx.commandLine, ['outbox', 'drop', '--rejected'])}\` removes what the service rejected` : undefined,
    ],
  });
}
