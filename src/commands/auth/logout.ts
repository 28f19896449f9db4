import { renderMessage } from '../../io/render.js';
import { defineCommand } from '../../command-kit/types.js';
import type { authCommands } from '../../definitions/auth.js';
import { updateConfig } from '../../config/store.js';

export default defineCommand<typeof authCommands.authLogout, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const settings = await ctx.settings();
    let removed = false;
    await updateConfig(ctx.env, (config) => {
      const profile = config.profiles[settings.profile];
      if (profile?.api_key !== undefined) {
        delete profile.api_key;
        removed = true;
      }
    });
    if (ctx.globals.quiet) return;
    await renderMessage(
      ctx.io,
      removed ? `Removed the API key of profile "${settings.profile}"` : `Profile "${settings.profile}" had no saved key`,
      removed ? 'success' : 'info',
    );
  },
});
