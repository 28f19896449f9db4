import type { SettableKey } from '../../config/store.js';
import { parseSettableValue } from '../../config/store.js';
import { presentSuccess } from '../../io/present.js';
import { defineCommand } from '../../command-kit/types.js';
import type { configCommands } from '../../definitions/config.js';
import { configKeyArg } from '../../args/config-key.js';
import { updateConfig } from '../../config/store.js';

export interface ConfigSetOptions {
  key: SettableKey;
  value: string | number;
}

export default defineCommand<typeof configCommands.configSet, ConfigSetOptions>({
  parse({ args }) {
    const key = configKeyArg(args[0] ?? '');
    return { key, value: parseSettableValue(key, args[1] ?? '') };
  },
  async run({ key, value }, ctx) {
    const settings = await ctx.settings();
    await updateConfig(ctx.env, (config) => {
      config.profiles[settings.profile] = { ...config.profiles[settings.profile], [key]: value };
    });
    await presentSuccess(ctx, `Set ${key} = ${String(value)} for profile "${settings.profile}"`);
  },
});
