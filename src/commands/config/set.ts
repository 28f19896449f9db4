import type { SettableKey } from '../../config/store.js';
import { parseSettableValue } from '../../config/store.js';
import { presentSuccess } from '../../io/present.js';
import { defineCommand } from '../types.js';
import type { profilesCommands } from '../../definitions/profiles.js';
import { configKeyArg } from './keys.js';
import { updateConfig } from '../../config/store.js';

export interface ConfigSetOptions {
  key: SettableKey;
  value: string | number;
}

export default defineCommand<typeof profilesCommands.configSet, ConfigSetOptions>({
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
