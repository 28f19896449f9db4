import { checkFaultRule } from '../../schemas/fault-rule.js';
import type { FaultRule, FaultRuleInput } from '../../schemas/sandbox-admin.js';
import { FAULT_LIMITS } from '../../schemas/sandbox-admin.js';
import type { FieldIssue } from '../../schemas/validate.js';

/**
 * A fault change the sandbox refuses: `validation_failed` (each issue names the field and the rule),
 * `too_many_faults`, or `fault_not_found`. The admin route answers it as 422 or 404.
 */
export class FaultError extends Error {
  override readonly name = 'FaultError';
  constructor(
    readonly code: 'validation_failed' | 'too_many_faults' | 'fault_not_found',
    message: string,
    readonly issues: readonly FieldIssue[] = [],
  ) {
    super(message);
  }
}

/** What a request shows a rule: its route name, method, path (no query), and its organisation when asked for. */
export interface FaultTarget {
  route: string;
  method: string;
  path: string;
  /** The organisation of the request's key, or null; read only when a rule names one. */
  org: () => string | null;
}

/** One issue per line of the error, as `field rule`. */
export function issuesMessage(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.path === '' ? `request body ${i.message}` : `${i.path} ${i.message}`)).join('; ');
}

/** The aimed faults, in the order they were added: the first live rule that matches a request answers it. */
export class AimedFaults {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: unknown): FaultRule {
    const checked = checkFaultRule(input);
    if (!checked.ok) throw new FaultError('validation_failed', issuesMessage(checked.issues), checked.issues);
    if (this.rules.length >= FAULT_LIMITS.rules) {
      // A spent rule is only kept to be read: the oldest one makes room.
      const spent = this.rules.findIndex((r) => r.remaining === 0);
      if (spent === -1) throw new FaultError('too_many_faults', `at most ${FAULT_LIMITS.rules} aimed faults are kept; remove some (DELETE /_sandbox/v1/faults/{id}) or clear them`);
      this.rules.splice(spent, 1);
    }
    const rule: FaultRule = { id: `flt_${this.nextId++}`, ...checked.value, remaining: checked.value.times ?? null, hits: 0 };
    this.rules.push(rule);
    return { ...rule };
  }

  get size(): number {
    return this.rules.length;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  remove(id: string): FaultRule {
    const at = this.rules.findIndex((r) => r.id === id);
    if (at === -1) throw new FaultError('fault_not_found', `no aimed fault ${id}`);
    const [removed] = this.rules.splice(at, 1);
    return removed as FaultRule;
  }

  clear(): number {
    const count = this.rules.length;
    this.rules = [];
    return count;
  }

  /** The first live rule matching the request, counted as hit (one fewer to go); undefined when none. */
  take(request: FaultTarget): Readonly<FaultRule> | undefined {
    if (this.rules.length === 0) return undefined;
    let org: string | null | undefined;
    for (const rule of this.rules) {
      if (rule.remaining === 0 || !aims(rule, request)) continue;
      if (rule.org !== undefined && rule.org !== (org ??= request.org())) continue;
      rule.hits++;
      if (rule.remaining !== null) rule.remaining--;
      return rule;
    }
    return undefined;
  }
}

function aims(rule: FaultRuleInput, request: FaultTarget): boolean {
  return (rule.route === undefined || rule.route === request.route) && (rule.method === undefined || rule.method === request.method) && (rule.path === undefined || rule.path === request.path);
}
