import { extname } from 'node:path';
import { UsageError } from '../errors.js';

/** The formats a bulk input file can have; checked with the flags, before anything is read. */
export const INPUT_FORMATS = ['ndjson', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl', '.json', '.txt', '']);

/** The format given explicitly, else from the file extension (.csv, .ndjson/.jsonl/.json/.txt). */
export function inputFormat(path: string, explicit: InputFormat | undefined, flag = '--format'): InputFormat {
  if (explicit !== undefined) return explicit;
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (NDJSON_EXTENSIONS.has(ext)) return 'ndjson';
  throw new UsageError(`cannot tell the format of "${path}" from its extension`, flag, `add ${flag} ndjson or ${flag} csv`);
}
