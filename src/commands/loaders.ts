/**
 * Which module runs each command, imported only when the command runs (one bundle chunk per command).
 * Kept apart from the definitions so the arrows run one way: this file → the table → the definitions,
 * and each command module → its area's definition (for its options' type); no definition imports a module.
 * The command at path `a b` lives at ./a/b.ts, a one-word command `a` at ./a.ts. An alias runs its
 * twin's module instead (ALIASES): `usage` is `usage daily`, `config use` is `auth switch`.
 */
import type { CommandDefinition } from '../definitions/definition.js';
import { definitions } from '../definitions/table.js';

type Loaded = Promise<{ default: unknown }>;

const LOADERS = new Map<CommandDefinition, () => Loaded>([
  [definitions.validateAddress, () => import('./validate-address.js')],
  [definitions.usageDaily, () => import('./usage/daily.js')],
  [definitions.usageRequests, () => import('./usage/requests.js')],
  [definitions.couriers, () => import('./couriers.js')],
  [definitions.overview, () => import('./overview.js')],
  [definitions.reference, () => import('./reference.js')],
  [definitions.oracle, () => import('./oracle.js')],
  [definitions.api, () => import('./api.js')],
  [definitions.track, () => import('./track.js')],
  [definitions.outbox, () => import('./outbox.js')],
  [definitions.outboxDrop, () => import('./outbox/drop.js')],
  [definitions.outboxFlush, () => import('./outbox/flush.js')],
  [definitions.batches, () => import('./batches.js')],
  [definitions.batchesPrune, () => import('./batches/prune.js')],
  [definitions.create, () => import('./create.js')],
  [definitions.get, () => import('./get.js')],
  [definitions.list, () => import('./list.js')],
  [definitions.patch, () => import('./patch.js')],
  [definitions.eventsList, () => import('./events/list.js')],
  [definitions.eventsAdd, () => import('./events/add.js')],
  [definitions.attemptsList, () => import('./attempts/list.js')],
  [definitions.attemptsAdd, () => import('./attempts/add.js')],
  [definitions.authLogin, () => import('./auth/login.js')],
  [definitions.authStatus, () => import('./auth/status.js')],
  [definitions.authToken, () => import('./auth/token.js')],
  [definitions.authLogout, () => import('./auth/logout.js')],
  [definitions.doctor, () => import('./doctor.js')],
  [definitions.authSwitch, () => import('./auth/switch.js')],
  [definitions.configList, () => import('./config/list.js')],
  [definitions.configGet, () => import('./config/get.js')],
  [definitions.configSet, () => import('./config/set.js')],
  [definitions.configUnset, () => import('./config/unset.js')],
  [definitions.sandboxServe, () => import('./sandbox/serve.js')],
  [definitions.sandboxReset, () => import('./sandbox/reset.js')],
  [definitions.sandboxClock, () => import('./sandbox/clock.js')],
  [definitions.sandboxSimulate, () => import('./sandbox/simulate.js')],
  [definitions.sandboxLogs, () => import('./sandbox/logs.js')],
  [definitions.sandboxFaults, () => import('./sandbox/faults.js')],
  [definitions.sandboxUi, () => import('./sandbox/ui.js')],
  [definitions.sandboxTenants, () => import('./sandbox/tenants.js')],
  [definitions.completion, () => import('./completion.js')],
  [definitions.version, () => import('./version.js')],
]);

/** Commands that are another command under a second name: each runs its twin's module. */
export const ALIASES = new Map<CommandDefinition, CommandDefinition>([
  [definitions.usage, definitions.usageDaily],
  [definitions.configUse, definitions.authSwitch],
]);

/** The module of a command from the table; each module is checked against its definition where it is written (defineCommand). */
export function loadCommand(def: CommandDefinition): Loaded {
  const load = LOADERS.get(ALIASES.get(def) ?? def);
  if (load === undefined) throw new Error(`no module for the command ${def.path.join(' ')}`);
  return load();
}
