import { presentRecordRows } from '../../io/present.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import { sandboxAdmin } from '../../sandbox-admin.js';
import { ApiError, UsageError } from '../../errors.js';
import { didYouMean } from '../../schemas/did-you-mean.js';
import type { ScenarioRunView } from '../../schemas/sandbox-admin.js';

export interface SimulateOptions {
  id: string;
  /** undefined: show the parcel's run. */
  scenario: string | undefined;
}

/** The message names the scenarios the sandbox knows (its built-in ones and a --scenarios file's): `…; known: a, b`. */
const KNOWN = /; known: (.*)$/;

/** A scenario name the sandbox does not know is bad input (exit 2), with the closest name it knows. */
function unknownScenario(typed: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof ApiError) || error.code !== 'unknown_scenario') throw error;
    const known = (KNOWN.exec(error.message)?.[1] ?? '').split(', ').filter((name) => name !== '');
    throw new UsageError(`${error.message}${didYouMean(typed, known)}`, 'SCENARIO');
  };
}

export default defineCommand<typeof sandboxCommands.sandboxSimulate, SimulateOptions>({
  async parse({ args }, ctx) {
    return { id: await resolveParcelId(args[0] ?? '', ctx), scenario: args[1] };
  },

  async run({ id, scenario }, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const view = (await (scenario === undefined ? admin.scenario(id) : admin.simulate(id, scenario).catch(unknownScenario(scenario)))) as ScenarioRunView;
      const state = view.done ? 'done' : `${view.steps.filter((s) => s.applied === true).length} of ${view.steps.length} steps applied`;
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
      await presentRecordRows(ctx, view, {
        line: `Parcel ${view.entry_id}: scenario ${view.scenario} (run ${view.run}), ${state}`,
        rows: steps,
        fields: ctx.fields(),
        now: await ctx.serviceNow(),
        view: 'steps',
      });
    } finally {
      await admin.close();
    }
  },
});
