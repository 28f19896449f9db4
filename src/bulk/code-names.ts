import { createReadStream } from 'node:fs';
import { codeTable, needsServiceNames } from '../args/codes.js';
import { codeFlag } from '../args/flags.js';
import { UsageError } from '../errors.js';
import type { CodeNames } from '../schemas/codes.js';
import type { FlagName } from '../schemas/flag-name.js';
import { isRecord } from '../schemas/record.js';
import type { InputFormat } from './input-format.js';
import type { InputLine } from './input.js';
import { SERVICE_CODE_FIELDS } from './values.js';

/**
 * The service's code names an input needs, read once per run before anything is sent (a run and
 * `--check` alike). Service and location types are named only by the service's reference route:
 * when a `service_type` or `delivered_location_type` value is a name, the names come through the
 * cache the flags use (`ctx.codeNames()`: at most one reference read), and a name the service does
 * not give refuses the whole input up front, naming the column, the line and the names it takes.
 * Numbers need no read. Status, outcome and reason need none either: the spec names every code a
 * line may send there (an unknown name stays one invalid line, like any other bad value).
 */

/** The quoted keys of those fields, and the end they share: what a byte scan looks for. */
const QUOTED_KEYS = [...SERVICE_CODE_FIELDS.keys()].map((field) => Buffer.from(`"${field}"`));
const KEY_END = Buffer.from('_type"');
/** A JSON escape (`\u…`) may spell a key otherwise. */
const ESCAPE = Buffer.from('\\u');
/** What a scan of the raw bytes keeps of one read for the next, so a key across two reads is found. */
const SCAN_OVERLAP = 4096;

/** A name in a code column, where it is first written. */
interface Written {
  field: string;
  flag: FlagName;
  table: keyof CodeNames;
  value: string;
  line: number;
}

export async function inputCodeNames(
  source: string,
  lines: (onHeader: (fields: ReadonlyArray<string | undefined>) => void) => AsyncGenerator<InputLine[]>,
  opts: { format: InputFormat; input: string; load: () => Promise<CodeNames>; overrides?: Readonly<Record<string, unknown>> | undefined; signal?: AbortSignal | undefined },
): Promise<CodeNames | undefined> {
  // Most NDJSON files write codes as numbers: one scan of the bytes, no line parsed.
  if (opts.format === 'ndjson' && !(await fileMayWriteName(source, opts.signal))) return undefined;
  const written = new Map<string, Written>();
  // A field a flag sets is not the line's: its value is never read (a flag's `delivered` replaces the line's group).
  const overridden = new Set(Object.keys(opts.overrides ?? {}));
  const note = (record: Record<string, unknown>, line: number): void => {
    for (const [field, value] of Object.entries(record)) {
      if (overridden.has(field)) continue;
      if (field === 'delivered' && isRecord(value)) note(value, line);
      const code = SERVICE_CODE_FIELDS.get(field);
      if (code === undefined || typeof value !== 'string' || !needsServiceNames(value, code.table)) continue;
      const key = `${field}\0${value}`;
      if (!written.has(key)) written.set(key, { field, ...code, value, line });
    }
  };
  let namedColumns = true;
  const reading = lines((fields) => {
    namedColumns = fields.some((field) => field !== undefined && SERVICE_CODE_FIELDS.has(field));
  });
  for await (const chunk of reading) {
    // A CSV header without such a column: no line can write a name.
    if (!namedColumns) break;
    for (const line of chunk) {
      // An NDJSON line is parsed only when its bytes may hold a name.
      if (opts.format === 'ndjson' && !mayWriteName(line.bytes)) continue;
      if (line.record !== undefined) note(line.record, line.line);
    }
  }
  await reading.return(undefined);
  if (written.size === 0) return undefined;
  const names = await opts.load();
  for (const { field, flag, table, value, line } of written.values()) {
    try {
      codeFlag(value, flag, codeTable(table, names));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${opts.input}:${line}: the column "${field}" ${error.message.slice(flag.length + 1)}; nothing was sent`, '--from', `write one of those names or its number in ${field} (${flag} takes the same)`);
    }
  }
  return names;
}

/** Whether NDJSON bytes may give one of those keys a string value (or spell a key with an escape). */
function mayWriteName(bytes: Buffer): boolean {
  if (bytes.includes(ESCAPE)) return true;
  for (let at = bytes.indexOf(KEY_END); at !== -1; at = bytes.indexOf(KEY_END, at + 1)) {
    const end = at + KEY_END.length;
    if (!QUOTED_KEYS.some((key) => end >= key.length && bytes.compare(key, 0, key.length, end - key.length, end) === 0)) continue;
    let next = end;
    while (isSpace(bytes[next])) next++;
    if (bytes[next] !== COLON) continue;
    next++;
    while (isSpace(bytes[next])) next++;
    if (bytes[next] === QUOTE) return true;
  }
  return false;
}

const COLON = 0x3a;
const QUOTE = 0x22;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** mayWriteName over a whole file, a read at a time: no line is split or parsed. */
async function fileMayWriteName(path: string, signal: AbortSignal | undefined): Promise<boolean> {
  let tail: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, ...(signal === undefined ? {} : { signal }) })) {
    const bytes = tail.length === 0 ? (chunk as Buffer) : Buffer.concat([tail, chunk as Buffer]);
    if (mayWriteName(bytes)) return true;
    tail = bytes.subarray(Math.max(0, bytes.length - SCAN_OVERLAP));
  }
  return false;
}
