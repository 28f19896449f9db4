/**
 * Faults for client tests: the rates every request meets (rates.ts) and the faults aimed at some
 * requests (rules.ts), both changed at run time through the admin route and the library.
 */
import { checkFaultRates } from '../../schemas/fault-rule.js';
import type { FaultList, FaultRates, FaultRule } from '../../schemas/sandbox-admin.js';
import { FAULT_STATUS_DEFAULTS } from '../../schemas/sandbox-admin.js';
import type { FaultOptions } from './rates.js';
import { RateFaults } from './rates.js';
import type { FaultTarget } from './rules.js';
import { AimedFaults, FaultError, issuesMessage } from './rules.js';

export type { FaultOptions } from './rates.js';
export { mulberry32 } from './rates.js';
export type { FaultTarget } from './rules.js';
export { FaultError } from './rules.js';

/** What the faults make of one routed request. */
export type FaultVerdict =
  | { kind: 'none' }
  /** The request runs; `drop`: its connection is closed unanswered afterwards. */
  | { kind: 'run'; fault: string; latencyMs: number; drop: boolean }
  /** Answer this error instead of running the request (or, with `drop`, close the connection unanswered). */
  | { kind: 'answer'; fault: string; latencyMs: number; drop: boolean; status: number; code: string; message: string; retryAfterS: number | undefined };

export class Faults {
  readonly rules = new AimedFaults();
  private startRates: RateFaults;

  constructor(private readonly opts: FaultOptions = {}) {
    this.startRates = new RateFaults(opts);
  }

  get rates(): RateFaults {
    return this.startRates;
  }

  /** Back to how the sandbox started (a reset): no aimed fault, the start-up rates, their dice thrown from the seed again. */
  restart(): void {
    this.rules.clear();
    this.startRates = new RateFaults(this.opts);
  }

  /** No aimed fault and no fail or drop rate: a request meets at most the rates' latency, set without asking. */
  get quiet(): boolean {
    return this.rules.size === 0 && !this.rates.rolling;
  }

  list(): FaultList {
    return { rules: this.rules.list(), rates: this.rates.rates() };
  }

  add(input: unknown): FaultRule {
    return this.rules.add(input);
  }

  setRates(change: unknown): FaultRates {
    const checked = checkFaultRates(change);
    if (!checked.ok) throw new FaultError('validation_failed', issuesMessage(checked.issues), checked.issues);
    return this.rates.set(checked.value);
  }

  /** Removes every aimed fault and sets every rate to 0 (the Retry-After stays); answers how many rules went. */
  clear(): number {
    this.rates.set({ fail_rate: 0, drop_rate: 0, latency_ms: 0 });
    return this.rules.clear();
  }

  /**
   * The rates' dice are thrown for every routed request (so a seed gives the same sequence whatever
   * the aimed faults do); an aimed fault that matches wins over them.
   */
  decide(request: FaultTarget): FaultVerdict {
    const dice = this.rates.decide();
    const rule = this.rules.take(request);
    const latencyMs = rule?.latency_ms ?? this.rates.latencyMs;
    if (rule !== undefined) return this.aimed(rule, latencyMs);
    if (dice.fail === 500) return { kind: 'answer', fault: 'fail_rate', latencyMs, drop: false, status: 500, code: 'internal_error', message: 'injected fault: internal failure (nothing was changed)', retryAfterS: undefined };
    if (dice.fail === 503) return { kind: 'answer', fault: 'fail_rate', latencyMs, drop: false, status: 503, code: 'service_unavailable', message: 'injected fault: service unavailable (nothing was changed)', retryAfterS: this.rates.retryAfterS };
    if (dice.drop) return { kind: 'run', fault: 'drop_rate', latencyMs, drop: true };
    if (latencyMs > 0) return { kind: 'run', fault: 'latency', latencyMs, drop: false };
    return { kind: 'none' };
  }

  /** What an aimed fault makes of the request it matched. */
  private aimed(rule: Readonly<FaultRule>, latencyMs: number): FaultVerdict {
    const drop = rule.drop === true;
    if (rule.status !== undefined) {
      const status = rule.status;
      const defaults = FAULT_STATUS_DEFAULTS[status] ?? { code: 'injected_fault', message: `HTTP status ${status}` };
      const retryAfterS = rule.retry_after_s ?? (status === 503 || status === 429 ? this.rates.retryAfterS : undefined);
      return { kind: 'answer', fault: rule.id, latencyMs, drop, status, code: rule.code ?? defaults.code, message: rule.message ?? `injected fault ${rule.id}: ${defaults.message}`, retryAfterS };
    }
    if (drop && rule.drop_before === true) {
      // Dropped before it runs: an answer nobody gets, kept for the request log.
      return { kind: 'answer', fault: rule.id, latencyMs, drop, status: 503, code: 'connection_dropped', message: `injected fault ${rule.id}: dropped before the request was carried out`, retryAfterS: undefined };
    }
    return { kind: 'run', fault: rule.id, latencyMs, drop };
  }
}
