import { NotLoggedInError, UsageError } from '../../errors.js';
import { hintCommand } from '../../hint/hint.js';
import { writeOut } from '../../io/streams.js';
import type { authCommands } from '../../definitions/auth.js';
import { defineCommand } from '../../command-kit/types.js';
import { sameCommand } from '../../hint/hint.js';

/**
 * Prints the profile's key for `export PARCELS_API_KEY=$(parcels auth token)`, like `gh auth token`:
 * the one deliberate exception to "the key never appears in output". On a terminal it refuses
 * unless --show is given, so the key does not land on screen or in a scrollback by accident.
 */
export default defineCommand<typeof authCommands.authToken, { show: boolean }>({
  parse({ flags }, ctx) {
    if (ctx.globals.sandbox) throw new UsageError('--sandbox uses the sandbox demo key; there is no profile key to print', '--sandbox');
    if (ctx.io.stdoutIsTTY && !flags.show) {
      throw new UsageError(
        'refusing to print the API key to a terminal',
        undefined,
        `capture it instead, e.g. export PARCELS_API_KEY=$(${sameCommand(ctx.commandLine)}), or print it here: \`${sameCommand(ctx.commandLine, { add: ['--show'] })}\``,
      );
    }
    return { show: flags.show };
  },
  async run(_options, ctx) {
    const settings = await ctx.settings();
    if (settings.apiKey === undefined) {
      throw new NotLoggedInError(`no API key for profile "${settings.profile}"`, ['run ', hintCommand(['auth', 'login', '--profile', settings.profile], ['--base-url']), ', or set PARCELS_API_KEY']);
    }
    await writeOut(ctx.io.stdout, `${settings.apiKey}\n`);
  },
});
