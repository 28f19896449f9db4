import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import type { FlagName } from '../schemas/flag-name.js';
import type { bulk } from '../definitions/flags.js';

/** The formats a bulk input file can have (`--format`'s choices); checked with the flags, before anything is read. */
export type InputFormat = (typeof bulk.format.choices)[number];

const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl', '.json', '.txt', '']);

/** The format given explicitly, else from the file extension (.csv, .ndjson/.jsonl/.json/.txt). */
export function inputFormat(path: string, explicit: InputFormat | undefined, flag: FlagName = '--format'): InputFormat {
  if (explicit !== undefined) return explicit;
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (NDJSON_EXTENSIONS.has(ext)) return 'ndjson';
  throw new UsageError(`cannot tell the format of "${path}" from its extension`, flag, `add ${flag} ndjson or ${flag} csv`);
}
