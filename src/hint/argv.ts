/**
 * The one tokeniser of a command line: the words after `parcels` split into flags (with their
 * values) and positional words exactly as commander's `parseOptions` reads them, for the hint
 * builder (a hint repeats the user's flags) and for completion (which flag waits for a value, where
 * the command would send its requests). The CLI's own parsing is commander's.
 *
 * As commander: a flag that takes a value takes the next word whatever it is (`--cursor -x`);
 * `-ojson` is `-o` with the value `json`; `-qv` is `-q` then `-v`; `--output=json` carries its value;
 * `-5` (a negative number) and `-` are positional; everything after `--` is positional.
 */
import type { FlagName } from '../schemas/flag-name.js';

/** How a flag is typed, read from its commander syntax (src/definitions/definition.ts `flagSyntax`). */
export interface FlagSyntax {
  long: FlagName;
  /** `-o` for `-o, --output <format>`. */
  short?: string;
  takesValue: boolean;
}

export interface ArgvToken<F extends FlagSyntax = FlagSyntax> {
  /**
   * The flag's long name (`--output` for `-ojson`); for a flag the command does not take, its name
   * as typed (`--statsu`, `-x`); undefined for a positional word.
   */
  flag?: string;
  /** The flag's syntax, when the command takes it. */
  syntax?: F;
  /**
   * The words as typed (`['--status', 'in_transit']`, `['--limit=5']`, `['-ojson']`), except that a
   * group of short flags gives each its own word (`-qv` → `['-q']`, `['-v']`): the same command line.
   */
  words: string[];
  /** The value of a flag that takes one. */
  value?: string;
  /** A flag that takes a value, with the line ending before its value (what completion completes). */
  awaitsValue?: true;
}

/** commander's negative number: an operand, not a flag (no flag of this CLI is a digit). */
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/;

function maybeFlag(word: string): boolean {
  return word.length > 1 && word.startsWith('-') && !NEGATIVE_NUMBER.test(word);
}

/**
 * The tokens of `words`. `find` names the flag a word spells (`--output`, `-o`) and is asked when
 * the word is reached, so a reader that learns the command as it goes (completion) can widen it.
 */
export function* readArgv<F extends FlagSyntax>(words: readonly string[], find: (name: string) => F | undefined): Generator<ArgvToken<F>> {
  let group: string | undefined;
  let i = 0;
  while (i < words.length || group !== undefined) {
    const word = group ?? (words[i++] as string);
    group = undefined;
    if (word === '--') {
      for (const rest of words.slice(i)) yield { words: [rest] };
      return;
    }
    if (!maybeFlag(word)) {
      yield { words: [word] };
      continue;
    }
    const whole = find(word);
    if (whole !== undefined) {
      if (!whole.takesValue) yield { flag: whole.long, syntax: whole, words: [word] };
      else if (i < words.length) yield { flag: whole.long, syntax: whole, words: [word, words[i] as string], value: words[i++] as string };
      else yield { flag: whole.long, syntax: whole, words: [word], awaitsValue: true };
      continue;
    }
    if (!word.startsWith('--')) {
      const short = find(word.slice(0, 2));
      if (short?.takesValue === true) yield { flag: short.long, syntax: short, words: [word], value: word.slice(2) };
      else if (short !== undefined) {
        yield { flag: short.long, syntax: short, words: [word.slice(0, 2)] };
        group = `-${word.slice(2)}`;
      } else yield { flag: word.slice(0, 2), words: [word] };
      continue;
    }
    const eq = word.indexOf('=');
    const named = eq > 2 ? find(word.slice(0, eq)) : undefined;
    if (named?.takesValue === true) yield { flag: named.long, syntax: named, words: [word], value: word.slice(eq + 1) };
    else yield { flag: eq > 2 ? word.slice(0, eq) : word, words: [word] };
  }
}
