import { UsageError } from '../../errors.js';

/** The field separators a CSV file may use: comma, semicolon (spreadsheets in most European locales) or tab. */
export const DELIMITERS = { comma: 0x2c, semicolon: 0x3b, tab: 0x09 } as const;

export type DelimiterName = keyof typeof DELIMITERS;

/** A delimiter as one byte. */
export type Delimiter = (typeof DELIMITERS)[DelimiterName];

const SPELLINGS: Readonly<Record<string, DelimiterName>> = { comma: 'comma', ',': 'comma', semicolon: 'semicolon', ';': 'semicolon', tab: 'tab', '\t': 'tab', '\\t': 'tab' };

/** `--delimiter comma|semicolon|tab|,|;`. */
export function delimiterFlag(value: string): Delimiter {
  const name = SPELLINGS[value.toLowerCase()];
  if (name === undefined) throw new UsageError(`--delimiter must be comma, semicolon or tab (or , or ;) (got "${value}")`, '--delimiter');
  return DELIMITERS[name];
}

const QUOTE = 0x22;

/**
 * The delimiter of a header line: the one of comma, semicolon and tab found most often outside
 * quotes (a comma on a tie, or when there is none: a file of one column).
 */
export function detectDelimiter(header: Uint8Array): Delimiter {
  const counts = new Map<number, number>([[DELIMITERS.comma, 0], [DELIMITERS.semicolon, 0], [DELIMITERS.tab, 0]]);
  let quoted = false;
  for (const byte of header) {
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && counts.has(byte)) counts.set(byte, (counts.get(byte) as number) + 1);
  }
  let best: Delimiter = DELIMITERS.comma;
  for (const candidate of [DELIMITERS.semicolon, DELIMITERS.tab]) {
    if ((counts.get(candidate) as number) > (counts.get(best) as number)) best = candidate;
  }
  return best;
}
