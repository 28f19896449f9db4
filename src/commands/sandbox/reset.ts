import { UsageError } from '../../errors.js';
import { renderMessage } from '../../io/render.js';
import { confirm } from '../../io/prompt.js';
import { sameCommand } from '../../hint/hint.js';
import { defineCommand } from '../../command-kit/types.js';
import type { Context } from '../../context.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defaultSandboxDb } from '../../config/paths.js';
import { resetSandboxData } from '../../config/sandbox-data.js';
import { isRecord } from '../../schemas/record.js';
import { sandboxAdmin } from '../../sandbox-admin.js';

/**
 * `sandbox reset`: empties what `--sandbox` keeps between runs (its database, ETags and code
 * names); pointed at a running sandbox (servedBaseUrl), empties that one, or that tenant, back to
 * its seed through its admin route.
 */
export default defineCommand<typeof sandboxCommands.sandboxReset, { yes: boolean }>({
  parse({ flags }, ctx) {
    if (!flags.yes && !ctx.io.stdinIsTTY) {
      throw new UsageError('no terminal to ask for confirmation', '--yes', `add --yes to reset without asking: \`${sameCommand(ctx.commandLine, { drop: ['--yes'], add: ['--yes'] })}\``);
    }
    return { yes: flags.yes };
  },
  async run({ yes }, ctx) {
    const served = await servedBaseUrl(ctx);
    if (served !== undefined) return resetServed(served, yes, ctx);
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

/**
 * The running sandbox this command line aims at: --base-url URL, or --profile NAME of a profile
 * marked as a sandbox. Undefined for the --sandbox database, which a bare `sandbox reset` empties
 * whatever PARCELS_BASE_URL or the current profile say (a destructive command acts on what was typed).
 */
async function servedBaseUrl(ctx: Context): Promise<string | undefined> {
  if (ctx.globals.sandbox) return undefined;
  const settings = await ctx.settings();
  const aimed = settings.sources.baseUrl === 'flag' || (settings.sources.profile === 'flag' && settings.markedSandbox === true);
  return aimed ? settings.baseUrl : undefined;
}

async function resetServed(baseUrl: string, yes: boolean, ctx: Context): Promise<void> {
  if (!yes && !(await confirm(ctx.io, `Reset the sandbox at ${baseUrl}: delete every parcel, event and attempt, and set its clock back to real time?`))) {
    await renderMessage(ctx.io, `Kept the sandbox at ${baseUrl}; nothing was deleted`, 'info');
    return;
  }
  const admin = await sandboxAdmin(ctx);
  try {
    const answer = await admin.reset();
    const clock = isRecord(answer) && isRecord(answer.clock) && typeof answer.clock.now === 'string' ? answer.clock.now : undefined;
    await renderMessage(ctx.io, `Reset the sandbox at ${baseUrl} to its seed; its clock runs at real time${clock === undefined ? '' : ` (${clock})`}`, 'success');
  } finally {
    await admin.close();
  }
}
