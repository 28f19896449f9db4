/**
 * The lines of a run, one per item as it is done (an outbox flush): a sentence each for a person
 * at a terminal, the item's JSON line for scripts (piped, or any machine format), and with --quiet
 * the ids of what succeeded.
 */
import type { ResultKind } from './kinds.js';
import { forPeople } from '../present.js';
import type { PresentContext } from '../present.js';
import { renderLine } from '../render.js';

export interface RunLine {
  /** The item's JSON line, as bulk runs print it. */
  readonly json: string;
  /** The item's sentence for a person. */
  text(): string;
  /** What --quiet prints: the id a success made or touched (nothing for a failure). */
  readonly quietId: string | undefined;
}

/** A run's result lines are NDJSON as they come: a filter over them is a pipe's job, not --jq's. */
export const RUN_LINES: ResultKind = {
  noJq: "--jq does not apply to a run's result lines (one JSON object per line): pipe them to jq instead, e.g. | jq -c 'select(.ok | not)'",
};

/** The printer of a run's lines, chosen once before the run starts. */
export function runLines(ctx: PresentContext): (line: RunLine) => Promise<void> {
  const people = ctx.io.stdoutIsTTY && forPeople(ctx);
  return async (line) => {
    if (ctx.globals.quiet) {
      if (line.quietId !== undefined) await renderLine(ctx.io, line.quietId);
      return;
    }
    await renderLine(ctx.io, people ? line.text() : line.json);
  };
}
