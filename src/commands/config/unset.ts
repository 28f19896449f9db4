import type { SettableKey } from '../../config/store.js';
import { renderMessage } from '../../io/render.js';
import { defineCommand } from '../../command-kit/types.js';
import type { configCommands } from '../../definitions/config.js';
import { configKeyArg } from '../../args/config-key.js';
import { updateConfig } from '../../config/store.js';

export default defineCommand<typeof configCommands.configUnset, { key: SettableKey }>({
  parse: ({ args }) => ({ key: configKeyArg(args[0] ?? '') }),
  async run({ key }, ctx) {
    const settings = await ctx.settings();
    let removed = false;
    await updateConfig(ctx.env, (config) => {
      const profile = config.profiles[settings.profile];
      if (profile?.[key] === undefined) return;
      delete profile[key];
      removed = true;
    });
    await renderMessage(
      ctx.io,
      removed ? `Removed ${key} from profile "${settings.profile}"` : `Profile "${settings.profile}" had no ${key} set`,
      removed ? 'success' : 'info',
    );
  },
});
