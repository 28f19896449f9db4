import type { ArgvToken, FlagSyntax } from './argv.js';
import { readArgv } from './argv.js';
import { shellQuote } from './shell.js';
import type { CheckedWords, FlagName } from '../schemas/flag-name.js';

export type { FlagSyntax };

/**
 * The one hint builder. Hints repeat the command as the user typed it: the same globals (--sandbox, --profile,
 * --base-url), the same filters, with only the change the hint suggests. This reads the user's argv
 * back into options and positionals with the syntax of the flags the command takes, so a hint never
 * loses a flag.
 */

/**
 * The user's command line (`ctx.commandLine`): the words after `parcels`, and the syntax of every
 * flag the command takes, the global ones included (src/command-kit/command-line.ts builds it).
 */
export interface CommandLine {
  readonly words: readonly string[];
  readonly flags: readonly FlagSyntax[];
}

/** The globals that decide where requests go: a hint for another command keeps these, completion reads the target from them. */
export const WHERE_FLAGS: readonly FlagName[] = ['--profile', '--base-url', '--sandbox'];

/** The words read into flags and positionals, as commander reads them (src/hint/argv.ts). */
export function tokenize(line: CommandLine): ArgvToken[] {
  const table = new Map<string, FlagSyntax>();
  for (const syntax of line.flags) {
    table.set(syntax.long, syntax);
    if (syntax.short !== undefined) table.set(syntax.short, syntax);
  }
  return [...readArgv(line.words, (name) => table.get(name))];
}

function render(words: readonly string[]): string {
  return ['parcels', ...words].map((w, i) => (i === 0 ? w : shellQuote(w))).join(' ');
}

/**
 * The user's own command with changes: `drop` removes every occurrence of those flags, `add`
 * appends words. `parcels list --status 2 --sandbox` with drop --cursor, add --cursor X.
 */
export function sameCommand<const Add extends readonly string[]>(line: CommandLine, change: { drop?: readonly FlagName[]; add?: CheckedWords<Add> } = {}): string {
  const drop = new Set<string>(change.drop ?? []);
  const kept = tokenize(line).filter((t) => t.flag === undefined || !drop.has(t.flag));
  return render([...kept.flatMap((t) => t.words), ...(change.add ?? [])]);
}

/**
 * The user's own command with one typed word corrected: `evnts` → `events`, `--statsu` → `--status`
 * (in `--statsu=2` too), a value in `--profile=prod1` or `-pprod1`; undefined when no word of the
 * command line is the one typed (it came from the environment).
 */
export function correctedCommand(line: CommandLine, wrong: string, right: string): string | undefined {
  const words = [...line.words];
  for (const [at, word] of words.entries()) {
    let fixed: string | undefined;
    if (word === wrong) fixed = right;
    else if (word.startsWith(`${wrong}=`)) fixed = right + word.slice(wrong.length);
    else if (word.startsWith('-') && word.endsWith(`=${wrong}`)) fixed = word.slice(0, -wrong.length) + right;
    else if (/^-[A-Za-z]./.test(word) && word.slice(2) === wrong) fixed = word.slice(0, 2) + right;
    if (fixed !== undefined) {
      words[at] = fixed;
      return render(words);
    }
  }
  return undefined;
}

/** Another command (`['get', id]`) run where the user's ran: their --sandbox, --profile and --base-url (or `keep`) come along. */
export function otherCommand<const Words extends readonly string[]>(line: CommandLine, command: CheckedWords<Words>, keep: readonly FlagName[] = WHERE_FLAGS): string {
  const where = tokenize(line).filter((t) => t.flag !== undefined && (keep as readonly string[]).includes(t.flag));
  return render([...command, ...where.flatMap((t) => t.words)]);
}

/** Whether the user typed this flag (long form, short form or `--flag=value`). */
export function typedFlag(line: CommandLine, flag: FlagName): boolean {
  return tokenize(line).some((t) => t.flag === flag);
}

/**
 * A hint stated by a layer that has no command line (the config files, settings): its text, with
 * each command as words. describe-error renders the commands where the user's ran (`renderHint`
 * with ctx.commandLine), so `--profile`, `--base-url` and `--sandbox` come along as typed.
 */
export type HintPart = string | { readonly run: readonly string[]; readonly keep?: readonly FlagName[] };

/** A hint's command, its words checked as a hint's are (a literal flag must exist). */
export function hintCommand<const Words extends readonly string[]>(run: CheckedWords<Words>, keep?: readonly FlagName[]): HintPart {
  return keep === undefined ? { run } : { run, keep };
}

const NO_LINE: CommandLine = { words: [], flags: [] };

/** The hint's text with each command in backticks, keeping the user's where-flags the command does not already name. */
export function renderHint(parts: readonly HintPart[], line: CommandLine = NO_LINE): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const keep = (part.keep ?? WHERE_FLAGS).filter((flag) => !part.run.includes(flag));
      return `\`${otherCommand(line, part.run, keep)}\``;
    })
    .join('');
}
