import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { ID_PREFIX_MIN, parcelIdSchema } from '../schemas/parcel-id.js';
import { parcelIdArg } from './flags.js';
import { otherCommand } from '../hint/hint.js';

/** The most matches an ambiguity error lists. */
const MATCHES_SHOWN = 10;

/** Ids the CLI printed, created or wrote to stay known for prefixes (src/config/known-ids.ts). */
export async function rememberParcelIds(ctx: Context, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await (await ctx.knownIds()).remember(ids);
}

/**
 * A parcel id argument: a whole UUID as given, or a unique prefix (at least 8 characters) of an id
 * this target has shown or cached (`ctx.prefixIds()`: the set a terminal's short ids are unique in). An ambiguous or unknown prefix
 * is a usage error (exit 2), nothing sent.
 */
export async function resolveParcelId(value: string, ctx: Context): Promise<string> {
  if (parcelIdSchema.safeParse(value).success) return value;
  const prefix = value.toLowerCase();
  if (new RegExp(`^[0-9a-f-]{1,${ID_PREFIX_MIN - 1}}$`).test(prefix)) {
    throw new UsageError(`ID must be a whole id, or a unique prefix of ${ID_PREFIX_MIN} or more characters (got "${value}", ${value.length})`, 'ID');
  }
  if (!new RegExp(`^[0-9a-f-]{${ID_PREFIX_MIN},35}$`).test(prefix)) return parcelIdArg(value);
  const matches = (await ctx.prefixIds()).filter((id) => id.toLowerCase().startsWith(prefix)).sort();
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0) {
    throw new UsageError(
      `no known parcel id starts with "${value}"`,
      'ID',
      `give the whole id, or run \`${otherCommand(ctx.commandLine, ['list', '--all', '--quiet'])}\` once: every id it prints can then be abbreviated to ${ID_PREFIX_MIN} or more characters`,
    );
  }
  const shown = matches.slice(0, MATCHES_SHOWN).join(', ');
  const more = matches.length > MATCHES_SHOWN ? ` and ${matches.length - MATCHES_SHOWN} more` : '';
  throw new UsageError(`"${value}" matches ${matches.length} parcels: ${shown}${more}; give more characters`, 'ID');
}
