import { shellQuote } from '../../io/shell.js';
import type { FlagSyntax } from '../definition.js';
import { flagSyntax } from '../definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { COMMANDS } from '../table.js';

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

let syntaxByName: Map<string, FlagSyntax> | undefined;

function syntaxTable(): Map<string, FlagSyntax> {
  if (syntaxByName !== undefined) return syntaxByName;
  const table = new Map<string, FlagSyntax>();
  for (const spec of [...Object.values(GLOBAL_FLAGS), ...COMMANDS.flatMap((definition) => Object.values(definition.flags))]) {
    const syntax = flagSyntax(spec);
    table.set(syntax.long, syntax);
    if (syntax.short !== undefined) table.set(syntax.short, syntax);
  }
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

/** The value typed for a flag that takes one (`--output json`, `--output=json`, `-ojson`); undefined for a switch. */
export function flagValue(token: Token): string | undefined {
  const [word = '', next] = token.words;
  if (next !== undefined) return next;
  if (token.flag === undefined || syntaxTable().get(token.flag)?.takesValue !== true) return undefined;
  if (!word.startsWith('--')) return word.length > 2 ? word.slice(2) : undefined;
  return word.includes('=') ? word.slice(word.indexOf('=') + 1) : undefined;
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
