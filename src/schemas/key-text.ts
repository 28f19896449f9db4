/**
 * The one decoder of key-shaped text. A key can be smuggled past a search for its clear text by
 * writing some of its characters escaped: percent-encoded (`%5F`, `%5f`) or as JSON/JavaScript
 * `\u` escapes (`\u005F`, `\u005f`), and JSON's `\/`. Whoever looks for a key in text it did not
 * write (the CLI's redaction of a server's answer, the sandbox's request log) searches the text this
 * returns as well as the text itself.
 */
const ESCAPED = /%([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})|\\(\/)/g;

/** `text` with every percent, `\u` and `\/` escape decoded; the same string when it holds none. */
export function decodeKeyText(text: string): string {
  if (!text.includes('%') && !text.includes('\\')) return text;
  return text.replace(ESCAPED, (_match, percent: string | undefined, unicode: string | undefined, slash: string | undefined) => {
    if (slash !== undefined) return slash;
    return String.fromCharCode(Number.parseInt(percent ?? unicode ?? '', 16));
  });
}
