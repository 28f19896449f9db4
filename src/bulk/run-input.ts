import type { Context } from '../context.js';
import { dataDir } from '../config/paths.js';
import { ConflictError, UsageError } from '../errors.js';
import { sameCommand } from '../hint/hint.js';
import type { BulkRunOptions } from './flags.js';
import type { ImportOptions } from './import.js';
import { BatchChangedError, changedHint, changedMessage } from './changed.js';
import { displayZone } from '../io/time.js';
import { timeText } from '../schemas/time-text.js';
import { JournalLockedError } from './journal/lock.js';
import { UnknownColumnsError } from './csv/columns.js';
import { CopyOfBatchError, MatchedLinesError } from './created-index/refusal.js';
import { journalWhere } from './target.js';

/** What a bulk run and `--check` share on the command side: the input as the import reads it, and the refusals of its batch. */

/** What a run reads and how its lines become requests (shared by a run and `--check`). */
export type ImportSource = Pick<ImportOptions, 'kind' | 'input' | 'stdin' | 'format' | 'delimiter' | 'columns' | 'batchId' | 'continueBatch' | 'newBatch' | 'overrides' | 'unkeyed' | 'defaults' | 'oncePerParcel' | 'matchedLines' | 'codeNames' | 'dataDir' | 'target' | 'where' | 'now'>;

export async function importSource(opts: BulkRunOptions, ctx: Context, target: string): Promise<ImportSource> {
  // The five-minute rule is the service's: lines are checked against the clock `--at now` was read from.
  const skew = (await ctx.serviceNow()) - ctx.now();
  return {
    kind: opts.kind,
    input: opts.from,
    stdin: ctx.io.stdin,
    format: opts.format,
    delimiter: opts.delimiter,
    columns: opts.columns,
    batchId: opts.batchId,
    continueBatch: opts.continueBatch,
    newBatch: opts.newBatch,
    overrides: opts.overrides,
    unkeyed: opts.unkeyed,
    defaults: opts.defaults,
    oncePerParcel: opts.oncePerParcel,
    matchedLines: { flag: opts.matchedLines, setting: (await ctx.settings()).bulkMatchedLines },
    codeNames: () => ctx.codeNames(),
    dataDir: dataDir(ctx.env),
    target,
    where: await journalWhere(ctx),
    now: () => ctx.now() + skew,
  };
}

/** A refusal of the batch (changed input, another run holding it) in the user's terms, with the commands that go on. */
export function explainRefusal(error: unknown, opts: BulkRunOptions, ctx: Context): unknown {
  if (error instanceof BatchChangedError) {
    const drop = ['--continue', '--new-batch', '--check', '--skip-created', '--create-again'] as const;
    const skip = error.matchedLines > 0;
    const again = (add: '--continue' | '--new-batch'): string =>
      add === '--new-batch' && skip ? sameCommand(ctx.commandLine, { drop, add: ['--new-batch', '--skip-created'] }) : sameCommand(ctx.commandLine, { drop: ['--continue', '--new-batch', '--check'], add: [add] });
    const when = timeText(error.change.lastRan / 1000, ctx.io.stderrIsTTY ? displayZone(ctx.env, ctx.globals.utc === true) : undefined);
    return new UsageError(changedMessage(error.change, when), '--from', changedHint(error.change, again, error.matchedLines));
  }
  if (error instanceof CopyOfBatchError || error instanceof MatchedLinesError) return error.withHints(ctx.commandLine);
  if (error instanceof UnknownColumnsError) {
    const ignore = sameCommand(ctx.commandLine, { drop: ['--ignore-columns', '--check'], add: ['--ignore-columns', [...opts.columns.ignore, ...error.unknown].join(',')] });
    const them = error.unknown.length === 1 ? 'it' : 'them';
    return new UnknownColumnsError(error.input, error.unknown, error.kind, `rename ${error.unknown.length === 1 ? 'that column' : 'those columns'}, or run \`${ignore}\` to leave ${them} out (or --ignore-unknown-columns for every unknown column)`);
  }
  if (error instanceof JournalLockedError) {
    return new ConflictError(`${error.message} (batch journal ${error.lockPath})`, 'run it again once the other run has finished; it resumes where that one stopped');
  }
  return error;
}
