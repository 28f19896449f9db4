import type { Probe } from '../../api/probe.js';
import { SCOPES, probe, scopeRequests, serverTime } from '../../api/probe.js';
import type { Settings } from '../../config/settings.js';
import { ApiError, EXIT } from '../../errors.js';
import type { Scope } from '../../schemas/routes.js';
import { USER_AGENT } from '../../version.js';
import type { CheckResult, ScopeState } from './report.js';
import { failure, ok, skipped, warning } from './report.js';

/** Event and attempt times more than five minutes ahead of the service's clock are rejected. */
export const SKEW_FAIL_S = 300;
export const SKEW_WARN_S = 60;

export interface ServiceFindings {
  checks: CheckResult[];
  latencyMs: number | null;
  skewS: number | null;
  scopes: Record<Scope, ScopeState>;
}

/** What to type when the key itself is the problem, by where the key came from. */
export function keyFix(settings: Settings): string {
  return settings.sources.apiKey === 'env'
    ? 'set PARCELS_API_KEY to a valid key from the API console'
    : `run \`parcels auth login --profile ${settings.profile}\` with a valid key`;
}

function scopeFix(scope: Scope, settings: Settings): string {
  const login = settings.sources.apiKey === 'env' ? 'put it in PARCELS_API_KEY' : `run \`parcels auth login --profile ${settings.profile}\``;
  return `create a key with the ${scope} scope in the API console, then ${login}`;
}

/**
 * Probes the service: one request per scope, in parallel, without retries (a doctor reports what
 * happens, it does not wait out an outage). The couriers probe also answers whether the host
 * answers and the key is accepted; any answer's Date header gives the clock skew.
 */
export async function checkService(input: {
  settings: Settings & { baseUrl: string; apiKey: string };
  required: readonly Scope[];
  now: () => number;
  signal: AbortSignal;
  trace?: (line: string) => void;
}): Promise<ServiceFindings> {
  const { settings, required } = input;
  const { ApiClient } = await import('../../api/http.js');
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    retries: 0,
    userAgent: USER_AGENT,
    trace: input.trace,
  });
  let probes: Record<Scope, Probe>;
  try {
    const requests = scopeRequests(client, input.signal);
    const results = await Promise.all(SCOPES.map((scope) => probe(requests[scope])));
    probes = Object.fromEntries(SCOPES.map((scope, i) => [scope, results[i] as Probe])) as Record<Scope, Probe>;
  } finally {
    await client.close();
  }
  const now = input.now();
  const first = probes['deliveries:read'];
  const checks: CheckResult[] = [];
  const unknownScopes = Object.fromEntries(SCOPES.map((s) => [s, 'unknown'])) as Record<Scope, ScopeState>;

  // The host: any HTTP answer below 500 means it answers.
  const hostError = first.error;
  if (hostError !== undefined && !(hostError instanceof ApiError)) {
    checks.push(
      failure('host', `${settings.baseUrl} did not answer: ${hostError.message}`, 'check the base URL (--base-url, PARCELS_BASE_URL or the profile) and the network', EXIT.UNAVAILABLE),
      skipped('key', 'needs an answer from the host'),
      ...SCOPES.map((s) => skipped(`scope ${s}`, 'needs an answer from the host')),
      skipped('clock', 'needs an answer from the host'),
    );
    return { checks, latencyMs: null, skewS: null, scopes: unknownScopes };
  }
  if (hostError instanceof ApiError && hostError.status >= 500) {
    checks.push(failure('host', `${settings.baseUrl} answered ${hostError.status}: ${hostError.message}`, 'the service is failing or unavailable: try again later', EXIT.UNAVAILABLE));
  } else if (hostError instanceof ApiError && hostError.status === 429) {
    checks.push(failure('host', `${settings.baseUrl} answered 429: rate limited`, 'wait a minute and run `parcels doctor` again', EXIT.RATE_LIMITED));
  } else {
    checks.push(ok('host', `${settings.baseUrl} answered in ${first.ms} ms`));
  }

  // The key: 401 on every probe means it was refused; a failing service says nothing about it.
  if (hostError instanceof ApiError && (hostError.status >= 500 || hostError.status === 429)) {
    checks.push(skipped('key', 'the service did not get as far as the key'));
    for (const scope of SCOPES) checks.push(scopeCheck(scope, probes[scope], required.includes(scope), settings));
  } else if (hostError instanceof ApiError && hostError.status === 401) {
    checks.push(
      failure('key', `refused (invalid or expired): ${hostError.message}`, keyFix(settings), EXIT.AUTH),
      ...SCOPES.map((s) => skipped(`scope ${s}`, 'needs an accepted key')),
    );
  } else {
    checks.push(ok('key', `accepted (from ${settings.sources.apiKey === 'env' ? 'PARCELS_API_KEY' : settings.sources.apiKey === 'sandbox' ? 'the sandbox' : `profile "${settings.profile}"`})`));
    for (const scope of SCOPES) checks.push(scopeCheck(scope, probes[scope], required.includes(scope), settings));
  }
  const scopes = Object.fromEntries(SCOPES.map((s) => [s, scopeState(probes[s])])) as Record<Scope, ScopeState>;
  if (hostError instanceof ApiError && hostError.status === 401) Object.assign(scopes, unknownScopes);

  const dated = SCOPES.map((s) => probes[s].response).find((r) => r !== undefined && serverTime(r) !== undefined);
  const skewS = dated === undefined ? null : (serverTime(dated) as number) - now;
  checks.push(clockCheck(skewS));
  return { checks, latencyMs: first.response !== undefined || first.error instanceof ApiError ? first.ms : null, skewS, scopes };
}

function scopeState(p: Probe): ScopeState {
  if (p.response !== undefined) return 'held';
  if (p.error instanceof ApiError && p.error.status === 403) return 'missing';
  return 'unknown';
}

function scopeCheck(scope: Scope, p: Probe, required: boolean, settings: Settings): CheckResult {
  const name = `scope ${scope}`;
  const state = scopeState(p);
  if (state === 'held') return ok(name, 'held');
  if (state === 'missing') {
    const error = p.error as ApiError;
    const detail = scope === 'deliveries:write' ? writeRefusal(error) : `missing (403: ${error.message})`;
    const fix = /verif/i.test(detail) && !/scope/i.test(detail) ? 'verify the organisation in the API console' : scopeFix(scope, settings);
    return required
      ? failure(name, `${detail}, and --require-scope ${scope} was given`, fix, EXIT.AUTH)
      : warning(name, detail, fix);
  }
  const why = p.error === undefined ? 'no answer' : p.error instanceof ApiError ? `${p.error.status}: ${p.error.message}` : p.error.message;
  const detail = `unknown: the probe got ${why}`;
  const fix = 'run `parcels doctor` again later';
  return required ? failure(name, `${detail}, and --require-scope ${scope} was given`, fix, EXIT.UNAVAILABLE) : warning(name, detail, fix);
}

/** A 403 on the write probe: the scope or the organisation's verification, when the error says which. */
function writeRefusal(error: ApiError): string {
  const said = `${error.code} ${error.message}`;
  if (/verif/i.test(said) && !/scope/i.test(said)) return `organisation not verified (403: ${error.message})`;
  if (/scope|deliveries:write/i.test(said)) return `write scope missing (403: ${error.message})`;
  return `write scope missing or organisation not verified (403: ${error.message})`;
}

function clockCheck(skewS: number | null): CheckResult {
  if (skewS === null) return skipped('clock', 'no answer carried a Date header');
  const size = Math.abs(skewS);
  const detail = size === 0 ? 'in step with the service' : `this machine's clock is ${size} s ${skewS > 0 ? 'behind' : 'ahead of'} the service`;
  const fix = "synchronise this machine's clock (NTP): event and attempt times more than 5 minutes ahead are rejected";
  if (size > SKEW_FAIL_S) return failure('clock', detail, fix, EXIT.REJECTED);
  if (size > SKEW_WARN_S) return warning('clock', detail, fix);
  return ok('clock', detail);
}
