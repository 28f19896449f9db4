import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parcelIdSchema } from '../../schemas/parcel-id.js';
import { parcelIdArg } from './flags.js';
import { otherCommand } from './retype.js';

/** The shortest prefix accepted for a parcel id (like git's abbreviated hashes, but never shorter). */
export const ID_PREFIX_MIN = 8;

/** The most matches an ambiguity error lists. */
const MATCHES_SHOWN = 10;

/**
 * A parcel id argument: a whole UUID as given, or a unique prefix (at least 8 characters) of an id
 * this target has shown or cached (recent output, the ETag cache). An ambiguous or unknown prefix
 * is a usage error (exit 2), nothing sent.
 */
export async function resolveParcelId(value: string, ctx: Context): Promise<string> {
  if (parcelIdSchema.safeParse(value).success) return value;
  const prefix = value.toLowerCase();
  if (!new RegExp(`^[0-9a-f-]{${ID_PREFIX_MIN},35}$`).test(prefix)) return parcelIdArg(value);
  const [known, etags] = await Promise.all([ctx.knownIds(), ctx.etags()]);
  const candidates = new Set([...(await known.all()), ...(await etags.ids())]);
  const matches = [...candidates].filter((id) => id.toLowerCase().startsWith(prefix)).sort();
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0) {
    throw new UsageError(
      `no known parcel id starts with "${value}"`,
      'ID',
      `give the whole id, or run \`${otherCommand(ctx.commandLine, ['list'])}\` (ids it shows can then be abbreviated to 8 or more characters)`,
    );
  }
  const shown = matches.slice(0, MATCHES_SHOWN).join(', ');
  const more = matches.length > MATCHES_SHOWN ? ` and ${matches.length - MATCHES_SHOWN} more` : '';
  throw new UsageError(`"${value}" matches ${matches.length} parcels: ${shown}${more}; give more characters`, 'ID');
}
