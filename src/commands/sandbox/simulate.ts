import { renderList, renderMessage, renderRecord } from '../../io/render.js';
import { parcelIdArg } from '../shared/flags.js';
import type { toolsCommands } from '../definitions/tools.js';
import { defineCommand } from '../types.js';
import { sandboxAdmin } from './admin.js';

export interface SimulateOptions {
  id: string;
  /** undefined: show the parcel's run. */
  scenario: string | undefined;
}

interface RunView {
  entry_id: string;
  scenario: string;
  run: number;
  steps: Array<{ arrives_at: number; occurred_at: number; event?: number; attempt?: { outcome: number; reason: number }; copies: number; applied: boolean }>;
  refused: Array<{ step: number; code: string }>;
  done: boolean;
}

export default defineCommand<typeof toolsCommands.sandboxSimulate, SimulateOptions>({
  parse({ args }) {
    return { id: parcelIdArg(args[0] ?? ''), scenario: args[1] };
  },

  async run({ id, scenario }, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const view = (await (scenario === undefined ? admin.scenario(id) : admin.simulate(id, scenario))) as RunView;
      const format = ctx.outputFormat();
      if (format === 'json') {
        await renderRecord(ctx.io, view, { format, now: ctx.now() });
        return;
      }
      const state = view.done ? 'done' : `${view.steps.filter((s) => s.applied === true).length} of ${view.steps.length} steps applied`;
      await renderMessage(ctx.io, `Parcel ${view.entry_id}: scenario ${view.scenario} (run ${view.run}), ${state}`, 'info');
      const steps = view.steps.map((s, n) => ({
        step: n,
        arrives_at: s.arrives_at,
        occurred_at: s.occurred_at,
        event: s.event ?? null,
        outcome: s.attempt?.outcome ?? null,
        reason: s.attempt?.reason ?? null,
        copies: s.copies,
        applied: s.applied,
        refused: view.refused.find((r) => r.step === n)?.code ?? null,
      }));
      await renderList(ctx.io, steps, { format, fields: ctx.fields(), now: ctx.now(), view: 'steps' });
    } finally {
      await admin.close();
    }
  },
});
