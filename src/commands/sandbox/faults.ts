/** `parcels sandbox faults [action] [id]`: aimed faults and fault rates of a running sandbox (docs/sandbox.md, "Faults"). */
import { UsageError } from '../../errors.js';
import { shareFlag } from '../../args/share.js';
import { issuesToUsageError } from '../../args/flags.js';
import { presentResource } from '../../io/present/resource.js';
import { forPeople } from '../../io/present.js';
import { isRecord } from '../../schemas/record.js';
import { sameCommand } from '../../hint/hint.js';
import { closest } from '../../schemas/did-you-mean.js';
import { parseDuration } from '../../schemas/duration.js';
import { checkFaultRates, checkFaultRule } from '../../schemas/fault-rule.js';
import type { CommandFlag } from '../../schemas/flag-name.js';
import { ROUTES } from '../../schemas/routes.js';
import type { FaultRates, FaultRuleInput } from '../../schemas/sandbox-admin.js';
import { FAULT_LIMITS } from '../../schemas/sandbox-admin.js';
import { FAULT_ACTIONS_DESCRIBED } from '../../schemas/scenarios.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import type { CommandInput } from '../../command-kit/types.js';
import { defineCommand } from '../../command-kit/types.js';
import type { Context } from '../../context.js';
import { sandboxAdmin } from '../../sandbox-admin.js';

type Definition = typeof sandboxCommands.sandboxFaults;
type FaultsFlag = CommandFlag<Definition>;
type Flags = CommandInput<Definition['flags']>['flags'];
type Action = keyof typeof FAULT_ACTIONS_DESCRIBED;

export type FaultsOptions = { action: 'list' | 'clear' } | { action: 'remove'; id: string } | { action: 'add'; rule: FaultRuleInput } | { action: 'rates'; rates: Partial<FaultRates> };

const ACTIONS = Object.keys(FAULT_ACTIONS_DESCRIBED) as Action[];

/** Each flag by the admin route's field it fills, and the actions it goes with. */
const FIELD_FLAGS = {
  route: '--route', method: '--method', path: '--path', org: '--org', status: '--status', code: '--code', message: '--message',
  retry_after_s: '--retry-after', latency_ms: '--latency', drop: '--drop', drop_before: '--drop-before', times: '--times',
  fail_rate: '--fail-rate', drop_rate: '--drop-rate',
} as const satisfies Record<string, FaultsFlag>;
const FLAGS_OF: Readonly<Record<keyof Flags, { flag: FaultsFlag; actions: readonly Action[] }>> = {
  route: { flag: '--route', actions: ['add'] },
  method: { flag: '--method', actions: ['add'] },
  path: { flag: '--path', actions: ['add'] },
  org: { flag: '--org', actions: ['add'] },
  status: { flag: '--status', actions: ['add'] },
  code: { flag: '--code', actions: ['add'] },
  message: { flag: '--message', actions: ['add'] },
  retryAfter: { flag: '--retry-after', actions: ['add', 'rates'] },
  latency: { flag: '--latency', actions: ['add', 'rates'] },
  drop: { flag: '--drop', actions: ['add'] },
  dropBefore: { flag: '--drop-before', actions: ['add'] },
  times: { flag: '--times', actions: ['add'] },
  failRate: { flag: '--fail-rate', actions: ['rates'] },
  dropRate: { flag: '--drop-rate', actions: ['rates'] },
};

/** `--latency 200ms`, `2s`, or bare milliseconds (as `sandbox serve --latency` takes them). */
function latencyOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) : parseDuration(text);
  if (ms === undefined || ms > FAULT_LIMITS.latencyMs) throw new UsageError(`--latency takes a duration like 200ms, 2s or 1m, at most 10m (got "${text}")`, '--latency');
  return ms;
}

/** Only the flags of the action; one of another action is named with the action it goes with. */
function onlyFlagsOf(action: Action, flags: Flags): void {
  for (const key of Object.keys(FLAGS_OF) as Array<keyof Flags>) {
    const value = flags[key];
    if (value === undefined || value === false) continue;
    const { flag, actions } = FLAGS_OF[key];
    if (!actions.includes(action)) throw new UsageError(`${flag} goes with ${actions.map((a) => `faults ${a}`).join(' or ')}, not faults ${action}`, flag);
  }
}

function ruleOf(flags: Flags, ctx: Context): FaultRuleInput {
  const rule: Record<string, unknown> = {
    route: flags.route, method: flags.method, path: flags.path, org: flags.org, status: flags.status, code: flags.code, message: flags.message,
    retry_after_s: flags.retryAfter, latency_ms: latencyOf(flags.latency), times: flags.times,
    // --drop-before is a drop of its own: the request is not carried out.
    drop: flags.drop || flags.dropBefore ? true : undefined, drop_before: flags.dropBefore ? true : undefined,
  };
  const checked = checkFaultRule(Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined)));
  if (checked.ok) return checked.value;
  const near = flags.route === undefined ? undefined : closest(flags.route, ROUTES.map((r) => r.name));
  const error = issuesToUsageError(checked.issues, FIELD_FLAGS, 'the fault');
  if (near === undefined || checked.issues[0]?.path !== 'route') throw error;
  throw new UsageError(error.message, '--route', `did you mean ${near}: \`${sameCommand(ctx.commandLine, { drop: ['--route'], add: ['--route', near] })}\``);
}

export default defineCommand<Definition, FaultsOptions>({
  parse({ args, flags }, ctx) {
    const [typed = 'list', id] = args;
    const action = ACTIONS.find((a) => a === typed);
    if (action === undefined) throw new UsageError(`unknown faults action "${typed}"; use one of ${ACTIONS.join(', ')}`, 'action');
    onlyFlagsOf(action, flags);
    if (action === 'remove') {
      if (id === undefined || id === '') throw new UsageError('faults remove needs the id of an aimed fault, e.g. parcels sandbox faults remove flt_1 (parcels sandbox faults lists them)', 'id');
      return { action, id };
    }
    if (id !== undefined) throw new UsageError(`faults ${action} takes no id (got "${id}")`, action);
    if (action === 'add') return { action, rule: ruleOf(flags, ctx) };
    if (action === 'rates') {
      const change = { fail_rate: shareFlag(flags.failRate, '--fail-rate'), drop_rate: shareFlag(flags.dropRate, '--drop-rate'), latency_ms: latencyOf(flags.latency), retry_after_s: flags.retryAfter };
      const checked = checkFaultRates(Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)));
      if (!checked.ok) throw issuesToUsageError(checked.issues, FIELD_FLAGS, 'the rates');
      if (Object.keys(checked.value).length === 0) throw new UsageError('faults rates needs a change: --fail-rate, --drop-rate, --latency or --retry-after (parcels sandbox faults shows the rates)', 'rates');
      return { action, rates: checked.value };
    }
    return { action };
  },

  async run(options, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const { faults } = admin;
      const answer =
        options.action === 'add' ? await faults.add(options.rule)
        : options.action === 'remove' ? await faults.remove(options.id)
        : options.action === 'clear' ? await faults.clear()
        : options.action === 'rates' ? await faults.setRates(options.rates)
        : await faults.list();
      // Scripts get the admin route's record as it came; a person a line per aimed fault.
      await presentResource(ctx, forPeople(ctx) ? faultsForPeople(answer) : answer);
    } finally {
      await admin.close();
    }
  },
});

/** An aimed fault as a line: what it aims at, what they get, how many more. */
function ruleLine(rule: Record<string, unknown>): string {
  const aim = [rule.route, rule.method, rule.path].filter((part) => typeof part === 'string').join(' ');
  const org = typeof rule.org === 'string' ? ` of ${rule.org}` : '';
  const latency = typeof rule.latency_ms === 'number' ? `after ${rule.latency_ms} ms, ` : '';
  const answer =
    typeof rule.status === 'number' ? `${rule.status}${typeof rule.code === 'string' ? ` ${rule.code}` : ''}`
    : rule.drop_before === true ? 'dropped, not carried out'
    : rule.drop === true ? 'carried out, then dropped'
    : 'answered as usual';
  const left = typeof rule.remaining === 'number' ? `${rule.remaining} of ${String(rule.times)} left` : 'until removed';
  return `${aim}${org}: ${latency}${answer}; ${left}, ${String(rule.hits)} hit${rule.hits === 1 ? '' : 's'}`;
}

/** The answers as a person reads them: a line per aimed fault (by id), the rates on one line. Any other shape as it came. */
export function faultsForPeople(answer: unknown): unknown {
  if (!isRecord(answer)) return answer;
  if (Array.isArray(answer.rules) && isRecord(answer.rates)) {
    const lines: Record<string, string> = {};
    for (const rule of answer.rules) if (isRecord(rule) && typeof rule.id === 'string') lines[rule.id] = ruleLine(rule);
    if (answer.rules.length === 0) lines['aimed faults'] = 'none';
    return { ...lines, rates: ratesLine(answer.rates) };
  }
  if (typeof answer.id === 'string') return { [answer.id]: ruleLine(answer) };
  if (isRecord(answer.removed) && typeof answer.removed.id === 'string') return { removed: `${answer.removed.id}: ${ruleLine(answer.removed)}` };
  if (typeof answer.fail_rate === 'number') return { rates: ratesLine(answer) };
  return answer;
}

function ratesLine(rates: Record<string, unknown>): string {
  return `fail ${String(rates.fail_rate)}, drop ${String(rates.drop_rate)}, latency ${String(rates.latency_ms)} ms, Retry-After ${String(rates.retry_after_s)} s`;
}
