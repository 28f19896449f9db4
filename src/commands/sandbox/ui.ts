import { presentRecordOrLine } from '../../io/present.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import { sandboxAdmin } from '../../sandbox-admin.js';

/** No options: the sandbox is found as the other `sandbox` commands find it. */
export type UiOptions = Record<string, never>;

export default defineCommand<typeof sandboxCommands.sandboxUi, UiOptions>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const link = await admin.inspectorLink();
      await presentRecordOrLine(ctx, link, link.url, ctx.now());
    } finally {
      await admin.close();
    }
  },
});
