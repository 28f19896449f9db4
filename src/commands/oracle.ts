import { UsageError } from '../errors.js';
import { correctedCommand } from '../hint/hint.js';
import { closest } from '../schemas/did-you-mean.js';
import { ORACLE_METRICS } from '../schemas/oracle-metrics.js';
import { defineCommand } from '../command-kit/types.js';
import { presentPage } from '../io/present/resource.js';
import { pageOf } from '../api/envelope.js';
import type { oracleCommands } from '../definitions/oracle.js';

export interface OracleOptions {
  metric: string;
  query: Record<string, string>;
}

export default defineCommand<typeof oracleCommands.oracle, OracleOptions>({
  parse({ args, flags }, ctx) {
    const metric = (args[0] ?? '').trim();
    // The spec does not list the metrics, so any single path segment is passed on for the service to judge.
    if (!/^[A-Za-z0-9_.-]+$/.test(metric)) {
      throw new UsageError(`METRIC must be a metric name such as activity, planned or coverage (got "${args[0] ?? ''}")`, 'METRIC');
    }
    // Unknown to the spec but one typo away from a metric it names: `oracle planed` is refused, not sent.
    const meant = (ORACLE_METRICS as readonly string[]).includes(metric) ? undefined : closest(metric, ORACLE_METRICS);
    if (meant !== undefined) {
      const corrected = correctedCommand(ctx.commandLine, args[0] ?? '', meant);
      throw new UsageError(`unknown metric "${metric}": one of ${ORACLE_METRICS.join(', ')}`, 'METRIC', corrected === undefined ? undefined : `did you mean \`${corrected}\`?`);
    }
    const query: Record<string, string> = {};
    for (const pair of flags.param) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--param takes key=value (got "${pair}")`, '--param');
      query[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return { metric, query };
  },
  async run({ metric, query }, ctx) {
    const response = await (await ctx.api()).route('oracle.get', { params: { metric }, query, signal: ctx.signal });
    await presentPage(ctx, pageOf(response.data), 'No data for this metric.');
  },
});
