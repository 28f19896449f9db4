import { fstatSync } from 'node:fs';
import { COMMANDS } from './definitions/table.js';
import { GLOBAL_FLAGS } from './definitions/globals.js';
import { helpTopic, topLevelHelp } from './help.js';
import { VERSION } from './version.js';

/**
 * The hidden entry point the completion scripts call: `parcels __complete WORD…`. Answered by
 * dist/complete.cjs (src/completions/answer.ts), kept apart so `--version` never loads its readers.
 */
export const COMPLETE_COMMAND = '__complete';

/** The longest command line the fast path answers (`help TOPIC`); bin/parcels.js writes the same number. */
const FAST_PATH_WORDS = 2;

/**
 * The answers that need no command, no config and no commander: `--version`, the top-level help
 * and the help topics. Built on its own into a small CommonJS file that bin/parcels.js reads
 * before anything else, so the commands people run while learning the tool start fastest.
 */
export function fastAnswer(argv: readonly string[]): string | undefined {
  // bin/parcels.js does not read this file for a longer command line: every answer here is at most FAST_PATH_WORDS words.
  if (argv.length > FAST_PATH_WORDS) return undefined;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) return `${VERSION}\n`;
  if (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help'))) {
    return topLevelHelp(COMMANDS, Object.values(GLOBAL_FLAGS), VERSION, terminalColumns());
  }
  if (argv.length === 2 && argv[0] === 'help') return helpTopic(argv[1] as string, terminalColumns());
  return undefined;
}

/**
 * The terminal's width when stdout is one. Only a character device can be a terminal: anything else
 * (a pipe, a file) answers without creating `process.stdout`, whose stream modules cost ~6% of a
 * `--help` run (bin/parcels.js writes the answer to fd 1 itself).
 */
function terminalColumns(): number | undefined {
  try {
    if (!fstatSync(1).isCharacterDevice()) return undefined;
  } catch {
    return undefined; // stdout closed
  }
  return process.stdout.isTTY ? process.stdout.columns : undefined;
}
