/** `oracle`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';
import { ORACLE_METRIC_MEANINGS } from '../schemas/oracle-metrics.js';

export const oracleCommands = {
  oracle: command({
    path: ['oracle'],
    args: '<metric>',
    argValues: { 0: { name: 'Metrics (the spec\'s; another name is passed on for the service to judge)', values: ORACLE_METRIC_MEANINGS } },
    summary: 'Aggregate metrics: activity, planned, or coverage metadata',
    flags: { param: { type: 'list', flags: '--param <key=value>', description: 'query parameter for the metric' } },
    examples: ['parcels oracle activity', 'parcels oracle planned --param days=7 --json', 'parcels oracle coverage'],
  }),
} as const;
