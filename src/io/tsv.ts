/**
 * The piped form of a table: tab-separated, one header line, no colour, no alignment (gh's
 * pattern). Kept apart from table.ts so that piped output never loads cli-table3.
 */

function cell(text: string): string {
  return text.replace(/\r\n|[\t\r\n]/g, ' ');
}

export function tsvLine(cells: string[]): string {
  return cells.map(cell).join('\t') + '\n';
}

export function renderTsv(headers: string[], rows: string[][]): string {
  let out = headers.length > 0 ? tsvLine(headers) : '';
  for (const row of rows) out += tsvLine(row);
  return out;
}
