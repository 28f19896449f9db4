/** RFC 4180 CSV: fields quoted when they hold a comma, quote, CR or LF; quotes doubled. */

/** The raw text of a value in CSV: strings as they are, null/undefined empty, objects as JSON. */
function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record line, terminated by "\n". */
export function csvRow(values: unknown[]): string {
  return values.map((v) => csvField(csvValue(v))).join(',') + '\n';
}
