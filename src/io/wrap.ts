/**
 * The one word-wrapper. `widthOf` says how many columns a text takes: `.length` (the default) for
 * text the CLI writes itself in one-column characters (help: bundled into the `--help` fast path,
 * which string-width would slow, see docs/contributing.md), display width (`io/table.ts`
 * displayWidth) for text that may hold wide or combining characters (the checklist's details).
 */

/**
 * The words of `text`, split at spaces, but a command in backticks (`` `parcels auth login -p x` ``)
 * is one word: a pasted command is never broken across lines.
 */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const word of text.split(' ')) {
    const open = words.length > 0 && ((words.at(-1) as string).split('`').length - 1) % 2 === 1;
    if (open) words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  return words;
}

/** `text` in lines of at most `width` columns, broken at spaces, never inside a backticked command (a word longer than that stands alone). */
export function wrapWords(text: string, width: number, widthOf: (text: string) => number = (t) => t.length): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of wordsOf(text)) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && widthOf(next) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines;
}

/** `items` joined by ", " in lines of at most `width` columns, never broken inside an item (`events add`). */
export function wrapList(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [index, item] of items.entries()) {
    const word = index < items.length - 1 ? `${item},` : item;
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && next.length > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines;
}
