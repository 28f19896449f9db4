/**
 * The rules of an aimed fault and of the fault rates (docs/sandbox.md, "Faults"), checked once
 * here: by the admin route, the library and the `parcels sandbox faults` commands alike, so each
 * names the field (the CLI: the flag) and the rule the same way.
 */
import { closest } from './did-you-mean.js';
import { isRecord } from './record.js';
import { ROUTES, matchRoute } from './routes.js';
import type { FaultRates, FaultRuleInput } from './sandbox-admin.js';
import { FAULT_LIMITS } from './sandbox-admin.js';
import { hasControlCharacter } from './terminal-text.js';
import type { FieldIssue, Validated } from './validate.js';

const RULE_FIELDS = ['route', 'method', 'path', 'org', 'status', 'code', 'message', 'retry_after_s', 'latency_ms', 'drop', 'drop_before', 'times'] as const;
const RATE_FIELDS = ['fail_rate', 'drop_rate', 'latency_ms', 'retry_after_s'] as const;
const ROUTE_NAMES = ROUTES.map((r) => r.name);
const METHODS = [...new Set(ROUTES.map((r) => r.method))];

type Issues = FieldIssue[];

function unknownFields(body: Record<string, unknown>, known: readonly string[], issues: Issues): void {
  for (const name of Object.keys(body)) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    issues.push({ path: name, message: `is not an allowed field${near === undefined ? '' : `; did you mean ${near}?`}` });
  }
}

function wholeNumber(body: Record<string, unknown>, name: string, min: number, max: number, issues: Issues): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    issues.push({ path: name, message: `must be a whole number from ${min} to ${max}` });
    return undefined;
  }
  return value;
}

function text(body: Record<string, unknown>, name: string, issues: Issues, pattern?: { test: RegExp; rule: string }): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > FAULT_LIMITS.text || hasControlCharacter(value)) {
    issues.push({ path: name, message: `must be text of 1 to ${FAULT_LIMITS.text} characters without control characters` });
    return undefined;
  }
  if (pattern !== undefined && !pattern.test.test(value)) {
    issues.push({ path: name, message: pattern.rule });
    return undefined;
  }
  return value;
}

function onlyTrue(body: Record<string, unknown>, name: string, issues: Issues): true | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (value !== true) issues.push({ path: name, message: 'must be true (or left out)' });
  return value === true ? true : undefined;
}

/** Which requests the rule matches: a route name, or a method with an exact path that an API route serves. */
function target(body: Record<string, unknown>, issues: Issues): Pick<FaultRuleInput, 'route' | 'method' | 'path'> {
  let route = text(body, 'route', issues);
  if (route !== undefined && !(ROUTE_NAMES as readonly string[]).includes(route)) {
    const near = closest(route, ROUTE_NAMES);
    issues.push({ path: 'route', message: `must be an API route name such as attempts.create (got "${route}")${near === undefined ? '' : `; did you mean ${near}?`}` });
    route = undefined;
  }
  const typedMethod = text(body, 'method', issues);
  const method = typedMethod?.toUpperCase();
  if (method !== undefined && !(METHODS as readonly string[]).includes(method)) {
    issues.push({ path: 'method', message: `must be one of ${METHODS.join(', ')} (got "${typedMethod}")` });
    return {};
  }
  const path = text(body, 'path', issues, { test: /^\/[^?#\s]*$/, rule: 'must be an exact path starting with / (no query string)' });
  if (issues.length > 0) return {};
  const spec = route === undefined ? undefined : ROUTES.find((r) => r.name === route);
  if (spec === undefined && (method === undefined || path === undefined)) {
    issues.push({ path: method === undefined ? (path === undefined ? 'route' : 'method') : 'path', message: 'is needed: aim at a route name, or at a method and path' });
    return {};
  }
  if (spec !== undefined && method !== undefined && method !== spec.method) {
    issues.push({ path: 'method', message: `must be ${spec.method}, the method of ${spec.name} (got "${typedMethod}")` });
    return {};
  }
  if (path !== undefined) {
    const wanted = method ?? (spec?.method as string);
    const served = matchRoute(wanted, path);
    if (served.route === undefined) {
      issues.push({ path: 'path', message: `is served by no API route for ${wanted} (got "${path}")` });
      return {};
    }
    if (spec !== undefined && served.route.name !== spec.name) {
      issues.push({ path: 'path', message: `is served by ${served.route.name}, not ${spec.name} (got "${path}")` });
      return {};
    }
  }
  return { ...(route === undefined ? {} : { route }), ...(method === undefined ? {} : { method }), ...(path === undefined ? {} : { path }) };
}

/** An aimed fault's input, checked: every problem with the field it is in and the rule. */
export function checkFaultRule(input: unknown): Validated<FaultRuleInput> {
  if (!isRecord(input)) return { ok: false, issues: [{ path: '', message: 'must be a JSON object' }] };
  const issues: Issues = [];
  unknownFields(input, RULE_FIELDS, issues);
  const aim = target(input, issues);
  const org = text(input, 'org', issues);
  const status = wholeNumber(input, 'status', 400, 599, issues);
  const code = text(input, 'code', issues, { test: /^[a-z][a-z0-9_]{0,63}$/, rule: 'must be a snake_case code of at most 64 characters, e.g. service_unavailable' });
  const message = text(input, 'message', issues);
  const retryAfter = wholeNumber(input, 'retry_after_s', 0, FAULT_LIMITS.retryAfterS, issues);
  const latency = wholeNumber(input, 'latency_ms', 0, FAULT_LIMITS.latencyMs, issues);
  const drop = onlyTrue(input, 'drop', issues);
  const dropBefore = onlyTrue(input, 'drop_before', issues);
  const times = wholeNumber(input, 'times', 1, FAULT_LIMITS.times, issues);
  if (issues.length > 0) return { ok: false, issues };
  if (status !== undefined && drop !== undefined) issues.push({ path: 'drop', message: 'cannot go with status: the answer is either an error status or none at all' });
  if (status === undefined && drop === undefined && latency === undefined) issues.push({ path: 'status', message: 'is needed (or drop, or latency_ms): say what the matching requests get' });
  if (dropBefore !== undefined && drop === undefined) issues.push({ path: 'drop_before', message: 'needs drop: true' });
  for (const [name, value] of [['code', code], ['message', message], ['retry_after_s', retryAfter]] as const) {
    if (value !== undefined && status === undefined) issues.push({ path: name, message: 'needs status: it shapes the error answer' });
  }
  if (issues.length > 0) return { ok: false, issues };
  const fields: FaultRuleInput = { ...aim, org, status, code, message, retry_after_s: retryAfter, latency_ms: latency, drop, drop_before: dropBefore, times };
  return { ok: true, value: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as FaultRuleInput };
}

/** A change of the fault rates (`PUT /_sandbox/v1/faults/rates`), checked. */
export function checkFaultRates(input: unknown): Validated<Partial<FaultRates>> {
  if (!isRecord(input)) return { ok: false, issues: [{ path: '', message: 'must be a JSON object' }] };
  const issues: Issues = [];
  unknownFields(input, RATE_FIELDS, issues);
  const out: Partial<FaultRates> = {};
  for (const name of ['fail_rate', 'drop_rate'] as const) {
    const value = input[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) issues.push({ path: name, message: 'must be a number from 0 to 1' });
    else out[name] = value;
  }
  const latency = wholeNumber(input, 'latency_ms', 0, FAULT_LIMITS.latencyMs, issues);
  const retryAfter = wholeNumber(input, 'retry_after_s', 0, FAULT_LIMITS.retryAfterS, issues);
  if (issues.length > 0) return { ok: false, issues };
  if (latency !== undefined) out.latency_ms = latency;
  if (retryAfter !== undefined) out.retry_after_s = retryAfter;
  return { ok: true, value: out };
}
