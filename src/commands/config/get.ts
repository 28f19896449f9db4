import { writeOut } from '../../io/streams.js';
import { defineCommand } from '../../command-kit/types.js';
import type { configCommands } from '../../definitions/config.js';
import type { SettableKey } from '../../config/store.js';
import { configKeyArg } from '../../args/config-key.js';

export default defineCommand<typeof configCommands.configGet, { key: SettableKey }>({
  parse: ({ args }) => ({ key: configKeyArg(args[0] ?? '') }),
  async run({ key }, ctx) {
    const settings = await ctx.settings();
    const values: Record<SettableKey, unknown> = {
      output: settings.output,
      timeout: settings.timeoutMs / 1000,
      retries: settings.retries,
      base_url: settings.baseUrl ?? '',
      bulk_matched_lines: settings.bulkMatchedLines,
      sandbox: settings.markedSandbox === true ? 'yes' : 'no',
      queue_writes: settings.queueWrites ? 'yes' : 'no',
    };
    await writeOut(ctx.io.stdout, `${String(values[key])}\n`);
  },
});
