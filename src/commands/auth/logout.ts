import { renderMessage } from '../../io/render.js';
import { defineCommand } from '../../command-kit/types.js';
import type { authCommands } from '../../definitions/auth.js';
import { updateConfig } from '../../config/store.js';
import { sameCommand } from '../../hint/hint.js';

interface LogoutOptions {
  removeProfile: boolean;
}

/** What the profile held before: its key, and whether it existed at all. */
interface Before {
  existed: boolean;
  hadKey: boolean;
}

export default defineCommand<typeof authCommands.authLogout, LogoutOptions>({
  parse: ({ flags }) => ({ removeProfile: flags.removeProfile }),
  async run({ removeProfile }, ctx) {
    const { profile: name } = await ctx.settings();
    const before: Before = { existed: false, hadKey: false };
    await updateConfig(ctx.env, (config) => {
      const profile = config.profiles[name];
      before.existed = profile !== undefined;
      before.hadKey = profile?.api_key !== undefined;
      if (removeProfile) {
        delete config.profiles[name];
        if (config.current_profile === name) delete config.current_profile;
      } else if (profile !== undefined) {
        delete profile.api_key;
      }
    });
    if (ctx.globals.quiet) return;
    if (removeProfile) {
      await renderMessage(ctx.io, before.existed ? `Removed profile "${name}": its key and settings` : `There was no profile "${name}" to remove`, before.existed ? 'success' : 'info');
      return;
    }
    const kept = before.existed ? `; kept its settings (\`${sameCommand(ctx.commandLine, { add: ['--remove-profile'] })}\` removes them too)` : '';
    await renderMessage(ctx.io, `${before.hadKey ? `Removed the API key of profile "${name}"` : `Profile "${name}" had no saved key`}${kept}`, before.hadKey ? 'success' : 'info');
  },
});
