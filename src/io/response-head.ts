import { sanitize } from './sanitize.js';
import { writeOut } from './streams.js';
import type { IO } from './streams.js';

/**
 * `parcels api --include`: the status line and headers, then a blank line, like `curl -i`. The
 * headers come from the service (the key already redacted from them) and are sanitised like any
 * server text.
 */
export async function renderResponseHead(io: IO, status: number, phrase: string, headers: Readonly<Record<string, string>>): Promise<void> {
  let out = `HTTP ${status} ${sanitize(phrase)}\n`;
  for (const [name, value] of Object.entries(headers)) out += `${sanitize(name)}: ${sanitize(value)}\n`;
  await writeOut(io.stdout, `${out}\n`);
}
