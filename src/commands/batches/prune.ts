import { UsageError } from '../../errors.js';
import { renderMessage } from '../../io/render.js';
import type { batchesCommands } from '../../definitions/batches.js';
import { defineCommand } from '../../command-kit/types.js';
import { pruneJournals } from '../../bulk/journal/list.js';
import { dataDir } from '../../config/paths.js';
import { forgetPrunedBatches } from '../../bulk/created-index/prune.js';
import { OUTBOX_BATCH } from '../../bulk/outbox.js';
import { removeBatchFiles } from '../../bulk/pruned-files.js';
import type { FlagName } from '../../schemas/flag-name.js';

export interface PruneOptions {
  olderThanMs: number;
}

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `7d`, `12h`, `30m`, `2w`. */
export function ageFlag(value: string, flag: FlagName): number {
  const match = /^(\d+)([mhdw])$/.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} must be a whole number with a unit m, h, d or w, e.g. 7d (got "${value}")`, flag);
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

/**
 * Removes bulk-run journals (and stdin spools) not written for longer than --older-than; never one a
 * run holds, never the outbox. A removed batch's results file and newest-batch pointers go with it,
 * and the target's created index forgets it: its lines no longer count as created for a copy or a match.
 */
export default defineCommand<typeof batchesCommands.batchesPrune, PruneOptions>({
  parse({ flags }) {
    return { olderThanMs: ageFlag(flags.olderThan, '--older-than') };
  },

  async run({ olderThanMs }, ctx) {
    const removed = pruneJournals(dataDir(ctx.env), olderThanMs, ctx.now() * 1000, [OUTBOX_BATCH]);
    const { results, pointers } = removeBatchFiles(removed);
    const forgotten = forgetPrunedBatches(removed);
    const alongside = [results === 0 ? '' : plural(results, 'results file'), pointers === 0 ? '' : plural(pointers, 'newest-batch pointer')].filter((part) => part !== '');
    const withThem = alongside.length === 0 ? '' : `, with ${alongside.join(' and ')}`;
    const index = forgotten === 0 ? '' : `; the created index forgot ${plural(forgotten, 'batch')}`;
    await renderMessage(ctx.io, `Removed ${plural(removed.length, 'file')} (journals and spooled inputs)${withThem}${index}`, 'success');
  },
});

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : noun.endsWith('h') ? 'es' : 's'}`;
}
