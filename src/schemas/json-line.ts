import { UUID_PATTERN } from './parcel-id.js';

/**
 * The one reader of a line of NDJSON input, and of a line of ids: the bulk commands' `--from`
 * (src/bulk/input.ts) and `track --from` (src/track/ids.ts). With `bareIds` a line that is only a
 * parcel id stands for `{"entry_id": …}`, so `parcels list -o ndjson` and a plain list of ids pipe
 * in alike. `text` is the line without its end and surrounding white space.
 */

export type JsonLine =
  /** `json`: false for a bare id (no JSON was written). */
  | { record: Record<string, unknown>; json: boolean; problem?: undefined }
  | { record: undefined; json: false; problem: string };

export function readJsonLine(text: string, bareIds: boolean): JsonLine {
  if (bareIds && UUID_PATTERN.test(text)) return { record: { entry_id: text }, json: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Neither JSON nor an id: most likely a mistyped id, said as such.
    if (bareIds && !text.startsWith('{')) return { record: undefined, json: false, problem: 'must be a parcel id (a UUID) or a JSON object' };
    return { record: undefined, json: false, problem: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { record: undefined, json: false, problem: bareIds ? 'must be a JSON object or a bare parcel id' : 'must be a JSON object' };
  }
  return { record: value as Record<string, unknown>, json: true };
}
