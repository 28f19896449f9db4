import { UsageError } from '../../errors.js';
import { renderMessage } from '../../io/render.js';
import { confirm } from '../../io/prompt.js';
import { sameCommand } from '../../hint/hint.js';
import { defineCommand } from '../../command-kit/types.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defaultSandboxDb } from '../../config/paths.js';
import { resetSandboxData } from '../../config/sandbox-data.js';

/** `sandbox reset`: empties what `--sandbox` keeps between runs (its database, ETags and code names). */
export default defineCommand<typeof sandboxCommands.sandboxReset, { yes: boolean }>({
  parse({ flags }, ctx) {
    if (!flags.yes && !ctx.io.stdinIsTTY) {
      throw new UsageError('no terminal to ask for confirmation', '--yes', `add --yes to reset without asking: \`${sameCommand(ctx.commandLine, { drop: ['--yes'], add: ['--yes'] })}\``);
    }
    return { yes: flags.yes };
  },
  async run({ yes }, ctx) {
    const db = defaultSandboxDb(ctx.env);
    // Saying no is an answer, not an error: nothing is deleted and the command ends with 0.
    if (!yes && !(await confirm(ctx.io, `Delete every parcel, event and attempt of the --sandbox database ${db}?`))) {
      await renderMessage(ctx.io, `Kept the sandbox; nothing was deleted (${db})`, 'info');
      return;
    }
    const existed = await resetSandboxData(ctx.env);
    await renderMessage(ctx.io, existed ? `Emptied the sandbox (${db})` : `The sandbox was already empty (${db})`, existed ? 'success' : 'info');
  },
});
