import type { Context } from '../context.js';
import { readConfig } from '../config/store.js';
import { UsageError } from '../errors.js';
import { correctedCommand, otherCommand } from '../hint/hint.js';
import { closest } from '../schemas/did-you-mean.js';
import type { FlagName, VariableName } from '../schemas/flag-name.js';

/** The profile used when none is chosen; it need not be saved to be named. */
const IMPLICIT_PROFILE = 'default';

/**
 * A profile named with --profile (or PARCELS_PROFILE) must exist: a typo would otherwise run with
 * no key or another base URL. Only `auth login` may name a new one (it creates it).
 */
export async function requireKnownProfile(ctx: Context): Promise<void> {
  const named = ctx.globals.profile ?? (ctx.env.PARCELS_PROFILE || undefined);
  if (named === undefined || named === '' || named === IMPLICIT_PROFILE) return;
  const profiles = Object.keys((await readConfig(ctx.env)).profiles);
  if (profiles.includes(named)) return;
  const flag: FlagName | VariableName = ctx.globals.profile === undefined ? 'PARCELS_PROFILE' : '--profile';
  const known = profiles.length === 0 ? 'no profiles are saved yet' : `profiles: ${profiles.join(', ')}`;
  const keep: readonly FlagName[] = ['--profile', '--base-url'];
  const login = flag === '--profile' ? otherCommand(ctx.commandLine, ['auth', 'login'], keep) : otherCommand(ctx.commandLine, ['auth', 'login', '--profile', named], keep);
  const meant = flag === '--profile' ? closest(named, profiles) : undefined;
  const corrected = meant === undefined ? undefined : correctedCommand(ctx.commandLine, named, meant);
  const hint = corrected === undefined ? `create it with \`${login}\`` : `did you mean \`${corrected}\`? Or create it with \`${login}\``;
  throw new UsageError(`profile "${named}" does not exist (${known})`, flag, hint);
}
