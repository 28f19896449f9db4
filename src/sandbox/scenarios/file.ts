import { readFileSync } from 'node:fs';
import { deliveredAddressSchema } from '../../schemas/history.js';
import type { DeliveredAddress } from '../../schemas/history.js';
import { parseDuration } from '../../schemas/duration.js';
import { validate } from '../../schemas/validate.js';
import { FileProblemsError } from '../errors.js';
import { BUILTIN_SCENARIOS } from './builtin.js';
import type { LinedJson } from './json-lines.js';
import { JsonSyntaxError, parseJsonWithLines } from './json-lines.js';
import type { ScenarioDefinition, ScenarioRule, ScenarioStep } from './types.js';

/** A scenario file that cannot be used; the message lists every problem with its line and rule. */
export class ScenarioFileError extends FileProblemsError {
  override readonly name = 'ScenarioFileError';
}

/** What a scenario file adds: its scenarios, its rules (checked before the built-in ones) and its seed. */
export interface ScenarioFile {
  scenarios: Map<string, ScenarioDefinition>;
  rules: ScenarioRule[];
  seed: number | undefined;
}

type Path = Array<string | number>;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_DEPTH = 8;
const MAX_STEPS = 1000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIntIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

class Checker {
  readonly problems: Array<{ line: number; path: string; rule: string }> = [];
  steps = 0;
  constructor(private readonly json: LinedJson) {}

  fail(path: Path, rule: string): void {
    this.problems.push({ line: this.json.lineOf(path), path: path.join('.') || '(file)', rule });
  }

  known(obj: Record<string, unknown>, path: Path, allowed: readonly string[]): void {
    for (const key of Object.keys(obj)) if (!allowed.includes(key)) this.fail([...path, key], `is not an allowed field (allowed: ${allowed.join(', ')})`);
  }

  duration(v: unknown, path: Path): number {
    if (v === undefined) return 0;
    const ms = typeof v === 'string' ? parseDuration(v) : undefined;
    if (ms === undefined) this.fail(path, 'must be a duration like "90s", "15m", "2h" or "1d"');
    return ms ?? 0;
  }

  stepList(v: unknown, path: Path, depth: number): ScenarioStep[] {
    if (!Array.isArray(v) || v.length === 0) {
      this.fail(path, 'must be a non-empty array of steps');
      return [];
    }
    return v.map((step, n) => this.step(step, [...path, n], depth));
  }

  step(v: unknown, path: Path, depth: number): ScenarioStep {
    const broken: ScenarioStep = { after: 0, lateBy: 0, event: 0 };
    if (!isObject(v)) {
      this.fail(path, 'must be an object with "after" and one of "event", "attempt" or "branch"');
      return broken;
    }
    if (++this.steps === MAX_STEPS + 1) this.fail(path, `a file may hold at most ${MAX_STEPS} steps`);
    const kinds = ['event', 'attempt', 'branch'].filter((k) => k in v);
    if (kinds.length !== 1) {
      this.fail(path, `must have exactly one of "event", "attempt" or "branch" (found ${kinds.length === 0 ? 'none' : kinds.join(', ')})`);
      return broken;
    }
    const after = this.duration(v.after, [...path, 'after']);
    if ('branch' in v) {
      this.known(v, path, ['after', 'branch']);
      return { after, branch: this.branches(v.branch, [...path, 'branch'], depth) };
    }
    this.known(v, path, ['after', 'late_by', kinds[0] as string]);
    const lateBy = this.duration(v.late_by, [...path, 'late_by']);
    if ('event' in v) {
      if (!isIntIn(v.event, 0, 3)) this.fail([...path, 'event'], 'must be a status an event may report: an integer from 0 to 3');
      return { after, lateBy, event: v.event as number };
    }
    return { after, lateBy, attempt: this.attempt(v.attempt, [...path, 'attempt']) };
  }

  attempt(v: unknown, path: Path): { outcome: number; reason: number; delivered?: DeliveredAddress } {
    if (!isObject(v)) {
      this.fail(path, 'must be an object {"outcome": 0-4, "reason": 0-10, "delivered"?: {…}}');
      return { outcome: 0, reason: 0 };
    }
    this.known(v, path, ['outcome', 'reason', 'delivered']);
    if (!isIntIn(v.outcome, 0, 4)) this.fail([...path, 'outcome'], 'must be an integer from 0 to 4');
    if (!isIntIn(v.reason, 0, 10)) this.fail([...path, 'reason'], 'must be an integer from 0 to 10');
    const out: { outcome: number; reason: number; delivered?: DeliveredAddress } = { outcome: v.outcome as number, reason: v.reason as number };
    if (v.delivered !== undefined) {
      if (v.outcome !== 0 && v.outcome !== 2) this.fail([...path, 'delivered'], 'is allowed only when outcome is 0 (delivered) or 2 (delivered elsewhere)');
      const result = validate(deliveredAddressSchema, v.delivered);
      if (result.ok) out.delivered = result.value;
      else for (const issue of result.issues) this.fail([...path, 'delivered', ...issue.path.split('.').filter((p) => p !== '')], issue.message);
    }
    return out;
  }

  branches(v: unknown, path: Path, depth: number): Array<{ weight: number; steps: ScenarioStep[] }> {
    if (depth >= MAX_DEPTH) {
      this.fail(path, `branches may nest at most ${MAX_DEPTH} deep`);
      return [];
    }
    if (!Array.isArray(v) || v.length < 2) {
      this.fail(path, 'must be an array of at least two choices {"weight": n, "steps": […]}');
      return [];
    }
    return v.map((choice, n) => {
      const p = [...path, n];
      if (!isObject(choice)) {
        this.fail(p, 'must be an object {"weight": n, "steps": […]}');
        return { weight: 1, steps: [] };
      }
      this.known(choice, p, ['weight', 'steps']);
      if (choice.weight !== undefined && !isIntIn(choice.weight, 1, 1_000_000)) this.fail([...p, 'weight'], 'must be an integer from 1 to 1000000');
      return { weight: (choice.weight as number | undefined) ?? 1, steps: this.stepList(choice.steps, [...p, 'steps'], depth + 1) };
    });
  }

  rule(v: unknown, path: Path, names: ReadonlySet<string>): ScenarioRule | undefined {
    if (!isObject(v)) {
      this.fail(path, 'must be an object {"scenario": name, "courier"?: code, "postal_code"?: pattern}');
      return undefined;
    }
    this.known(v, path, ['scenario', 'courier', 'postal_code']);
    if (typeof v.scenario !== 'string' || !names.has(v.scenario)) {
      this.fail([...path, 'scenario'], `must name a built-in scenario or one of this file (${[...names].join(', ')})`);
      return undefined;
    }
    const rule: ScenarioRule = { scenario: v.scenario };
    if (v.courier !== undefined) {
      if (typeof v.courier === 'string' && v.courier !== '') rule.courier = v.courier;
      else this.fail([...path, 'courier'], 'must be a courier code');
    }
    if (v.postal_code !== undefined) {
      try {
        if (typeof v.postal_code !== 'string' || v.postal_code === '') throw new Error('empty');
        rule.postalCode = new RegExp(`^(?:${v.postal_code})$`, 'i');
      } catch {
        this.fail([...path, 'postal_code'], 'must be a regular expression matched against the whole postal code, e.g. "1234[A-Z]{2}"');
      }
    }
    if (rule.courier === undefined && rule.postalCode === undefined) this.fail(path, 'needs "courier" or "postal_code" (or both)');
    return rule;
  }
}

/** Validates a scenario file's text; `name` appears in errors. Throws ScenarioFileError listing every problem. */
export function parseScenarioFile(text: string, name: string): ScenarioFile {
  let json: LinedJson;
  try {
    json = parseJsonWithLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ScenarioFileError(`invalid scenario file ${name}`, [{ field: `line ${err.line}`, message: `not valid JSON: ${err.message}` }]);
    throw err;
  }
  const c = new Checker(json);
  const root = json.value;
  const out: ScenarioFile = { scenarios: new Map(), rules: [], seed: undefined };
  if (!isObject(root)) {
    c.fail([], 'must be a JSON object {"seed"?, "scenarios", "rules"?}');
  } else {
    c.known(root, [], ['seed', 'scenarios', 'rules']);
    if (root.seed !== undefined) {
      if (isIntIn(root.seed, 0, 2 ** 32 - 1)) out.seed = root.seed;
      else c.fail(['seed'], 'must be an integer from 0 to 4294967295');
    }
    if (root.scenarios !== undefined && !isObject(root.scenarios)) c.fail(['scenarios'], 'must be an object of named scenarios');
    for (const [scenario, def] of Object.entries(isObject(root.scenarios) ? root.scenarios : {})) {
      const p = ['scenarios', scenario];
      if (!NAME.test(scenario)) c.fail(p, 'a scenario name is 1-64 lower-case letters, digits and hyphens');
      else if (BUILTIN_SCENARIOS.has(scenario)) c.fail(p, `"${scenario}" is a built-in scenario; choose another name`);
      if (!isObject(def)) {
        c.fail(p, 'must be an object {"description"?, "steps": […]}');
        continue;
      }
      c.known(def, p, ['description', 'steps']);
      if (def.description !== undefined && typeof def.description !== 'string') c.fail([...p, 'description'], 'must be a string');
      out.scenarios.set(scenario, { description: (def.description as string | undefined) ?? '', steps: c.stepList(def.steps, [...p, 'steps'], 0) });
    }
    const names = new Set([...BUILTIN_SCENARIOS.keys(), ...out.scenarios.keys()]);
    if (root.rules !== undefined && !Array.isArray(root.rules)) c.fail(['rules'], 'must be an array of rules');
    (Array.isArray(root.rules) ? root.rules : []).forEach((rule, n) => {
      const r = c.rule(rule, ['rules', n], names);
      if (r) out.rules.push(r);
    });
  }
  if (c.problems.length > 0) {
    throw new ScenarioFileError(`invalid scenario file ${name}`, c.problems.map((p) => ({ field: `line ${p.line}: ${p.path}`, message: p.rule })));
  }
  return out;
}

/** Reads and validates a scenario file. */
export function loadScenarioFile(path: string): ScenarioFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioFileError(`cannot read scenario file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseScenarioFile(text, path);
}
