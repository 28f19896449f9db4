/**
 * The command line being completed, read as commander would: the command path typed so far, the
 * flags given (global ones and the command's own, from the definitions), the positional words, and
 * what the target flags say about the service it would talk to.
 */
import type { FlagSpec } from '../definitions/definition.js';
import { flagSyntax, helpDescription } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { COMMANDS } from '../definitions/table.js';
import type { FlagSyntax } from '../hint/argv.js';
import { readArgv } from '../hint/argv.js';
import { WHERE_FLAGS } from '../hint/hint.js';

export interface FlagInfo extends FlagSyntax {
  repeatable: boolean;
  description: string;
  choices?: readonly string[];
  /** The value is a file name after this prefix (`''` for `--from <file>`, `'@'` for `--data @body.json`). */
  filesAfter?: string;
}

function flagInfo(spec: FlagSpec): FlagInfo {
  return {
    ...flagSyntax(spec),
    repeatable: spec.type === 'list',
    description: helpDescription(spec),
    ...(spec.type === 'choice' ? { choices: spec.choices } : {}),
    ...(spec.flags.endsWith('<file>') ? { filesAfter: '' } : spec.type === 'string' && spec.filesAfter !== undefined ? { filesAfter: spec.filesAfter } : {}),
  };
}

/** Every command takes the global flags, and commander's --help. */
const EVERY_COMMAND_FLAGS: readonly FlagInfo[] = [
  ...Object.values(GLOBAL_FLAGS).map(flagInfo),
  { long: '--help', short: '-h', takesValue: false, repeatable: false, description: 'show help for a command' },
];

export interface Line {
  /** Words of the command path matched so far (`['events', 'add']`). */
  path: string[];
  /** The command, once the path names one. */
  command: (typeof COMMANDS)[number] | undefined;
  /** The positional words, in order. */
  words: string[];
  given: Set<string>;
  profile: string | undefined;
  baseUrl: string | undefined;
  sandbox: boolean;
  /** The target flags as typed (`--sandbox`, `-p ops`, `--base-url=…`), for a command run on the same target. */
  where: string[];
}

export function flagsOf(line: Line): FlagInfo[] {
  return [...EVERY_COMMAND_FLAGS, ...Object.values(line.command?.flags ?? {}).map(flagInfo)];
}

export function findFlag(line: Line, word: string): FlagInfo | undefined {
  return flagsOf(line).find((f) => f.long === word || f.short === word);
}

/** Records what a flag's value tells completion about the target (profile, base URL). */
function noteValue(line: Line, flag: FlagInfo, value: string): void {
  if (flag.long === '--profile') line.profile = value;
  if (flag.long === '--base-url') line.baseUrl = value;
}

/** The command line typed so far, read by the one tokeniser (src/hint/argv.ts); `pending`: the flag whose value is being typed. */
export function parseLine(words: readonly string[]): { line: Line; pending: FlagInfo | undefined } {
  const line: Line = { path: [], command: undefined, words: [], given: new Set(), profile: undefined, baseUrl: undefined, sandbox: false, where: [] };
  let pending: FlagInfo | undefined;
  // The flags known grow as the command path is read: `find` is asked as each word is reached.
  for (const token of readArgv(words, (name) => findFlag(line, name))) {
    const flag = token.syntax;
    if (token.flag === undefined) {
      positional(line, token.words[0] as string);
      continue;
    }
    if (flag === undefined) continue;
    line.given.add(flag.long);
    if (WHERE_FLAGS.includes(flag.long)) line.where.push(...token.words);
    if (flag.long === '--sandbox') line.sandbox = true;
    if (token.awaitsValue === true) pending = flag;
    else if (token.value !== undefined) noteValue(line, flag, token.value);
  }
  return { line, pending };
}

/** A word extends the command path while some command lies below it (`usage` runs, and `usage daily` too); else it is an argument. */
function positional(line: Line, word: string): void {
  if (line.words.length === 0) {
    const path = [...line.path, word];
    const matches = COMMANDS.filter((c) => path.every((part, i) => c.path[i] === part));
    if (matches.length > 0) {
      line.path = path;
      line.command = matches.find((c) => c.path.length === path.length);
      return;
    }
  }
  line.words.push(word);
}
