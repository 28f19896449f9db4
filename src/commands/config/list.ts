import { maskKey } from '../../api/redact.js';
import { otherCommand } from '../../hint/hint.js';
import { defineCommand } from '../../command-kit/types.js';
import type { configCommands } from '../../definitions/config.js';
import { presentStream } from '../../io/present/resource.js';
import { readConfig } from '../../config/store.js';

export default defineCommand<typeof configCommands.configList, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const config = await readConfig(ctx.env);
    const active = (await ctx.settings()).profile;
    const rows = Object.entries(config.profiles).map(([name, profile]) => ({
      profile: name,
      active: name === active,
      base_url: profile.base_url ?? null,
      api_key: profile.api_key === undefined ? null : maskKey(profile.api_key),
      output: profile.output ?? null,
      timeout: profile.timeout ?? null,
      retries: profile.retries ?? null,
      bulk_matched_lines: profile.bulk_matched_lines ?? null,
      sandbox: profile.sandbox ?? null,
      queue_writes: profile.queue_writes ?? null,
    }));
    await presentStream(ctx, toAsync(rows), `No profiles yet: run \`${otherCommand(ctx.commandLine, ['auth', 'login', '--base-url', 'URL'], ['--profile'])}\`.`);
  },
});

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
