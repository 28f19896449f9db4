import { UsageError } from '../../errors.js';
import { renderMessage } from '../../io/render.js';
import { defineCommand } from '../types.js';
import { intFlag } from '../shared/flags.js';
import type { ConfigKey } from './keys.js';
import { configKeyArg } from './keys.js';

export interface ConfigSetOptions {
  key: ConfigKey;
  value: string | number;
}

export default defineCommand<ConfigSetOptions>({
  parse({ args }) {
    const key = configKeyArg(args[0] ?? '');
    const raw = args[1] ?? '';
    if (key === 'retries') return { key, value: intFlag(raw, 'retries', { min: 0, max: 10 }) };
    if (key === 'timeout') {
      const seconds = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
        throw new UsageError(`timeout must be a positive number of seconds (got "${raw}")`, 'timeout');
      }
      return { key, value: seconds };
    }
    return { key, value: raw };
  },
  async run({ key, value }, ctx) {
    const settings = await ctx.settings();
    const { updateConfig } = await import('../../config/store.js');
    await updateConfig(ctx.env, (config) => {
      config.profiles[settings.profile] = { ...config.profiles[settings.profile], [key]: value };
    });
    await renderMessage(ctx.io, `Set ${key} = ${String(value)} for profile "${settings.profile}"`, 'success');
  },
});
