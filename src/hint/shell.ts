/**
 * The one shape of a bare shell word and the one quoting, for every command the CLI prints for
 * pasting (hints, dry-run curl lines) and every value completion offers: bash, zsh and fish each read
 * it back as exactly the text it came from.
 *
 * A bare word holds letters, digits and `_ . / : @ % + , = -`, and does not start with `=` (zsh reads
 * `=ls` as the path of ls) or `%` (fish reads `%self` as its process id). Braces (`{1..3}` in bash and
 * zsh, `{a,b}` in fish), `~`, globs, `$`, quotes, backslashes, `!`, `#`, `^`, spaces and every other
 * character make a word that is quoted.
 *
 * Quoting: each run without `'` or `\` goes inside single quotes, and each `'` and `\` is written
 * outside them as `\'` and `\\`. Single quotes alone are not enough: fish reads `\'` and `\\` inside
 * them as escapes, so POSIX's `'\''` idiom breaks there (`\';touch x;#` would run `touch x`).
 */

/** The bare shape: letters, digits and `_ . / : @ % + , = -`, no leading `=` or `%`. */
const BARE_WORD = /^(?![=%])[\p{L}\p{N}_./:@%+,=-]+$/u;

/** Whether a shell takes this word as it is (a completion candidate must be one). */
export function isBareWord(text: string): boolean {
  return BARE_WORD.test(text);
}

/** The word as bash, zsh and fish read back verbatim: bare when it has the bare shape, else quoted (see above). */
export function shellQuote(text: string): string {
  if (isBareWord(text)) return text;
  if (text === '') return "''";
  return text
    .split(/(['\\])/)
    .filter((part) => part !== '')
    .map((part) => (part === "'" || part === '\\' ? `\\${part}` : `'${part}'`))
    .join('');
}
