import { codeTable, needsServiceNames, specNamesCodes } from '../args/codes.js';
import { codeFlag } from '../args/flags.js';
import { UsageError } from '../errors.js';
import type { CodeNames } from '../schemas/codes.js';
import { isRecord } from '../schemas/record.js';
import type { InputFormat } from './input-format.js';
import type { InputLine } from './input.js';
import { CODE_FIELDS } from './values.js';

/**
 * The service's code names an input needs, read once per run before anything is sent (a run and
 * `--check` alike): only when a code column writes a name the spec does not give (a service or
 * location type name, which only the service's reference route names), through the cache the
 * flags use (`ctx.codeNames()`: at most one reference read). Numbers and the spec's names need no
 * read. A service or location type name the service does not give refuses the whole input up
 * front, naming the column, the line and the names it takes; an unknown status, outcome or reason
 * name stays one invalid line, like any other bad value.
 */

/** An NDJSON line may write a code as text only if a code key has a string value, or an escape spells the key otherwise. */
const NDJSON_TEXT_CODE = new RegExp(`"(?:${[...CODE_FIELDS.keys()].join('|')})"\\s*:\\s*"|\\\\u`);

/** A name in a code column, where it is first written. */
interface Written {
  field: string;
  value: string;
  line: number;
}

export async function inputCodeNames(lines: (onHeader: (fields: ReadonlyArray<string | undefined>) => void) => AsyncGenerator<InputLine[]>, opts: { format: InputFormat; input: string; load: () => Promise<CodeNames> }): Promise<CodeNames | undefined> {
  const written = new Map<string, Written>();
  const note = (record: Record<string, unknown>, line: number): void => {
    for (const [field, value] of Object.entries(record)) {
      if (field === 'delivered' && isRecord(value)) note(value, line);
      const code = CODE_FIELDS.get(field);
      if (code === undefined || typeof value !== 'string' || !needsServiceNames(value, code.table)) continue;
      const key = `${field}\0${value}`;
      if (!written.has(key)) written.set(key, { field, value, line });
    }
  };
  let codeColumns = true;
  const reading = lines((fields) => {
    codeColumns = fields.some((field) => field !== undefined && CODE_FIELDS.has(field));
  });
  for await (const chunk of reading) {
    // A CSV header without a code column: no line can write a name.
    if (!codeColumns) break;
    for (const line of chunk) {
      // Tested on the bytes first: an NDJSON line is parsed only when it may hold a name.
      if (opts.format === 'ndjson' && !NDJSON_TEXT_CODE.test(line.bytes.toString('latin1'))) continue;
      if (line.record !== undefined) note(line.record, line.line);
    }
  }
  await reading.return(undefined);
  if (written.size === 0) return undefined;
  const names = await opts.load();
  for (const { field, value, line } of written.values()) {
    const code = CODE_FIELDS.get(field);
    if (code === undefined || specNamesCodes(code.table)) continue;
    const { flag, table } = code;
    try {
      codeFlag(value, flag, codeTable(table, names));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${opts.input}:${line}: the column "${field}" ${error.message.slice(flag.length + 1)}; nothing was sent`, '--from', `write one of those names or its number in ${field} (${flag} takes the same)`);
    }
  }
  return names;
}
