import { UsageError } from '../../errors.js';
import { hintCommand } from '../../hint/hint.js';
import { renderMessage } from '../../io/render.js';
import { defineCommand } from '../../command-kit/types.js';
import type { authCommands } from '../../definitions/auth.js';
import type { configCommands } from '../../definitions/config.js';
import { updateConfig } from '../../config/store.js';

/** `auth switch PROFILE` and its alias `config use PROFILE`: the saved profile used when none is named. */
export default defineCommand<typeof authCommands.authSwitch | typeof configCommands.configUse, { profile: string }>({
  parse({ args }) {
    const profile = (args[0] ?? '').trim();
    if (profile === '') throw new UsageError('PROFILE must be a profile name', 'PROFILE');
    return { profile };
  },
  async run({ profile }, ctx) {
    await updateConfig(ctx.env, (config) => {
      if (!Object.hasOwn(config.profiles, profile)) {
        const known = Object.keys(config.profiles);
        throw new UsageError(
          `profile "${profile}" does not exist (${known.length === 0 ? 'no profiles are saved yet' : `profiles: ${known.join(', ')}`})`,
          'PROFILE',
          undefined,
          undefined,
          ['create it with ', hintCommand(['auth', 'login', '--profile', profile], ['--base-url'])],
        );
      }
      config.current_profile = profile;
    });
    await renderMessage(ctx.io, `Default profile is now "${profile}"`, 'success');
  },
});
