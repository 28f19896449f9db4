import { shellQuote } from '../../io/shell.js';
import { COMMANDS, GLOBAL_OPTIONS } from '../table.js';

/**
 * Hints repeat the command as the user typed it: the same globals (--sandbox, --profile,
 * --base-url), the same filters, with only the change the hint suggests. This reads the user's argv
 * back into options and positionals using the command table, so a hint never loses a flag.
 */

interface Token {
  /** The long flag (`--status`) for an option, undefined for a positional argument. */
  flag?: string;
  /** The argv words exactly as typed (`['--status', 'in_transit']`, `['--limit=5']`, `['-p', 'ops']`). */
  words: string[];
}

/** The globals that decide where requests go: a hint for another command keeps these. */
const WHERE_FLAGS = ['--profile', '--base-url', '--sandbox'];

interface OptionSyntax {
  long: string;
  takesValue: boolean;
}

let syntaxByName: Map<string, OptionSyntax> | undefined;

function syntaxTable(): Map<string, OptionSyntax> {
  if (syntaxByName !== undefined) return syntaxByName;
  const table = new Map<string, OptionSyntax>();
  const add = (flags: string): void => {
    const long = /--[\w-]+/.exec(flags)?.[0];
    if (long === undefined) return;
    const syntax = { long, takesValue: /[<[]/.test(flags) };
    table.set(long, syntax);
    const short = /^-(\w),/.exec(flags)?.[1];
    if (short !== undefined) table.set(`-${short}`, syntax);
  };
  for (const option of GLOBAL_OPTIONS) add(option.flags);
  for (const definition of COMMANDS) for (const spec of Object.values(definition.flags)) add(spec.flags);
  syntaxByName = table;
  return table;
}

/** Splits argv into options (with their values) and positionals, as commander reads them. */
export function tokenize(argv: readonly string[]): Token[] {
  const table = syntaxTable();
  const tokens: Token[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      for (const rest of argv.slice(i + 1)) tokens.push({ words: [rest] });
      break;
    }
    if (!word.startsWith('-') || word === '-' || /^-\d/.test(word)) {
      tokens.push({ words: [word] });
      continue;
    }
    const eq = word.indexOf('=');
    const name = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word.startsWith('--') ? word : word.slice(0, 2);
    const syntax = table.get(name);
    const inline = word.startsWith('--') ? eq > 0 : word.length > 2;
    if (syntax?.takesValue && !inline && i + 1 < argv.length) {
      tokens.push({ flag: syntax.long, words: [word, argv[i + 1] as string] });
      i++;
    } else {
      tokens.push({ flag: syntax?.long ?? name, words: [word] });
    }
  }
  return tokens;
}

function render(words: readonly string[]): string {
  return ['parcels', ...words].map((w, i) => (i === 0 ? w : shellQuote(w))).join(' ');
}

/**
 * The user's own command with changes: `drop` removes every occurrence of those flags, `add`
 * appends words. `parcels list --status 2 --sandbox` with drop --cursor, add --cursor X.
 */
export function sameCommand(argv: readonly string[], change: { drop?: readonly string[]; add?: readonly string[] } = {}): string {
  const drop = new Set(change.drop ?? []);
  const kept = tokenize(argv).filter((t) => t.flag === undefined || !drop.has(t.flag));
  return render([...kept.flatMap((t) => t.words), ...(change.add ?? [])]);
}

/** Another command (`['get', id]`) run where the user's ran: their --sandbox, --profile and --base-url (or `keep`) come along. */
export function otherCommand(argv: readonly string[], command: readonly string[], keep: readonly string[] = WHERE_FLAGS): string {
  const where = tokenize(argv).filter((t) => t.flag !== undefined && keep.includes(t.flag));
  return render([...command, ...where.flatMap((t) => t.words)]);
}

/** Whether the user typed this flag (long form, short form or `--flag=value`). */
export function typedFlag(argv: readonly string[], flag: string): boolean {
  return tokenize(argv).some((t) => t.flag === flag);
}
