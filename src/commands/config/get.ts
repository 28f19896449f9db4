import { writeOut } from '../../io/streams.js';
import { defineCommand } from '../types.js';
import type { profilesCommands } from '../../definitions/profiles.js';
import type { SettableKey } from '../../config/store.js';
import { configKeyArg } from './keys.js';

export default defineCommand<typeof profilesCommands.configGet, { key: SettableKey }>({
  parse: ({ args }) => ({ key: configKeyArg(args[0] ?? '') }),
  async run({ key }, ctx) {
    const settings = await ctx.settings();
    const values: Record<SettableKey, unknown> = {
      output: settings.output,
      timeout: settings.timeoutMs / 1000,
      retries: settings.retries,
      base_url: settings.baseUrl ?? '',
    };
    await writeOut(ctx.io.stdout, `${String(values[key])}\n`);
  },
});
