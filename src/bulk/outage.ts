import type { CommandLine } from '../hint/hint.js';
import { sameCommand } from '../hint/hint.js';
import type { RunSummary } from './runner.js';

/**
 * What a bulk run stopped by the outage stop (src/api/core/policy.ts `OutageCircuit`) says: the
 * service is out of reach and the file is not at fault, how many lines were not sent, and the
 * command that resumes the batch (the user's own: the same input is the same batch).
 */
export function outageNotice(summary: Pick<RunSummary, 'unreachable'>, input: string, cause: string | undefined, line: CommandLine): { message: string; hint: string } {
  const lines = summary.unreachable === 1 ? '1 line was' : `${summary.unreachable} lines were`;
  const file = input === '-' ? 'the input' : input;
  const why = cause === undefined ? '' : ` (${cause})`;
  const again = input === '-' ? ' with the same input' : '';
  return {
    message: `the service cannot be reached${why}; nothing is wrong with ${file}: ${lines} not sent`,
    hint: `run \`${sameCommand(line)}\`${again} once the service is back: it sends the lines not sent, with the same keys, and replays the rest`,
  };
}
