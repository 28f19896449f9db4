/**
 * Parcel ids as a person's terminal shows them: the shortest prefix of at least ID_PREFIX_MIN
 * characters that no other id of `known` starts with, where `known` is the very set the prefix
 * resolver reads (`ctx.prefixIds()`, src/args/parcel-id.ts) — so every prefix shown resolves when
 * pasted. An id outside that set, or one no prefix tells apart, is shown whole.
 */
import { ID_PREFIX_MIN, UUID_PATTERN } from '../schemas/parcel-id.js';

/** How an id is shown: a unique prefix, or the id whole. */
export type ShortId = (id: string) => string;

/** The length of the common start of two strings. */
function commonStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Shortens ids to prefixes unique among `known` (compared without case, as the resolver does). */
export function shortIdsAmong(known: Iterable<string>): ShortId {
  const sorted = [...new Set([...known].map((id) => id.toLowerCase()))].sort();
  const position = new Map(sorted.map((id, i) => [id, i]));
  return (id) => {
    const lower = id.toLowerCase();
    const at = position.get(lower);
    if (at === undefined || !UUID_PATTERN.test(id)) return id;
    // In sorted order the ids sharing the longest start with this one are its neighbours.
    const shared = Math.max(commonStart(lower, sorted[at - 1] ?? ''), commonStart(lower, sorted[at + 1] ?? ''));
    let length = Math.max(ID_PREFIX_MIN, shared + 1);
    // A prefix never ends on a dash (`2e52db35-`): it reads as cut off.
    if (id[length - 1] === '-') length++;
    return length >= id.length ? id : id.slice(0, length);
  };
}

/** What choosing the ids' form reads of a command's context (the Context satisfies it). */
export interface ShortIdContext {
  readonly io: { readonly stdoutIsTTY: boolean };
  outputFormat(): string;
  prefixIds(): Promise<readonly string[]>;
}

/**
 * How this command's parcel ids are shown: shortened on a terminal's default table, whole
 * otherwise (undefined). Called once the ids shown are remembered, so they are in the set.
 */
export async function terminalShortIds(ctx: ShortIdContext): Promise<ShortId | undefined> {
  if (!ctx.io.stdoutIsTTY || ctx.outputFormat() !== 'table') return undefined;
  return shortIdsAmong(await ctx.prefixIds());
}
