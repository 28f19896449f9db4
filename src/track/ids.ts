import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { readAll } from '../io/streams.js';
import { parcelIdSchema } from '../schemas/parcel-id.js';
import { readJsonLine } from '../schemas/json-line.js';
import { resolveParcelId } from '../args/parcel-id.js';

/** The text given with --from: a file, or stdin for "-". */
async function fromText(value: string, ctx: Context): Promise<string> {
  if (value === '-') return readAll(ctx.io.stdin);
  try {
    return await readFile(value, 'utf8');
  } catch (error) {
    throw new UsageError(`--from could not read ${value}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, '--from');
  }
}

function isParcelId(value: unknown): value is string {
  return typeof value === 'string' && parcelIdSchema.safeParse(value).success;
}

/**
 * Parcel ids from --from: one per line, either the id itself or a JSON object with `entry_id` (so
 * `parcels list --output ndjson` pipes straight in), read as the bulk commands read theirs
 * (schemas/json-line.ts). Blank lines are skipped; anything else stops the command naming the
 * line, before anything is sent.
 */
export function idsFromLines(text: string): string[] {
  const ids: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const where = `--from line ${index + 1}`;
    const read = readJsonLine(line, true);
    if (read.problem !== undefined) throw new UsageError(`${where} ${read.problem}`, '--from');
    const id = read.record.entry_id;
    if (!isParcelId(id)) throw new UsageError(`${where} has no entry_id that is a parcel id (a UUID)`, '--from');
    ids.push(id);
  });
  return ids;
}

/**
 * The ids given as arguments (whole, or a unique prefix of 8+ characters of a known id) and with
 * --from (whole ids: scripts pass what they were given), each once, in the order given. None
 * only when --from held none.
 */
export async function parcelIds(args: readonly string[], from: string | undefined, ctx: Context): Promise<string[]> {
  const ids: string[] = [];
  for (const arg of args) ids.push(await resolveParcelId(arg, ctx));
  if (from !== undefined) ids.push(...idsFromLines(await fromText(from, ctx)));
  // An empty --from (a quiet day's `list … -o ndjson`) is no mistake: track has nothing to show.
  if (ids.length === 0 && from === undefined) {
    throw new UsageError('give at least one parcel ID, or --from FILE (- for stdin)', 'ID');
  }
  return [...new Set(ids)];
}
