import { spokenDuration } from '../schemas/time-text.js';
import type { Probe, ScopeState } from '../api/probe.js';
import { SCOPES, probeScopes, scopeState } from '../api/probe.js';
import { SKEW_FAIL_S, SKEW_WARN_S, beyondNoise, trustsTestClock } from '../clock-skew/policy.js';
import type { Settings } from '../config/settings.js';
import { ApiError, EXIT } from '../errors.js';
import type { Scope } from '../schemas/routes.js';
import type { CheckResult } from './report.js';
import { failure, ok, skipped, warning } from './report.js';
import type { ApiClient } from '../api/http.js';
import type { ClientOptions } from '../context.js';

export interface ServiceFindings {
  checks: CheckResult[];
  latencyMs: number | null;
  skewS: number | null;
  scopes: Record<Scope, ScopeState>;
}

/** What to type when the key itself is the problem, by where the key came from; `login` is the login command where the user's ran (describe-error's loginCommand). */
export function keyFix(settings: Settings, login: string): string {
  return settings.sources.apiKey === 'env' ? 'set PARCELS_API_KEY to a valid key from the API console' : `run \`${login}\` with a valid key`;
}

function scopeFix(scope: Scope, settings: Settings, login: string): string {
  const then = settings.sources.apiKey === 'env' ? 'put it in PARCELS_API_KEY' : `run \`${login}\``;
  return `create a key with the ${scope} scope in the API console, then ${then}`;
}

/**
 * Probes the service: one request per scope, in parallel, without retries (a doctor reports what
 * happens, it does not wait out an outage). The couriers probe also answers whether the host
 * answers and the key is accepted; any answer's Date header (a 401's or a 403's too) gives the
 * clock skew.
 */
export async function checkService(input: {
  settings: Settings & { baseUrl: string; apiKey: string };
  required: readonly Scope[];
  now: () => number;
  signal: AbortSignal;
  /** `parcels auth login` as the user would paste it here (their profile and base URL, quoted). */
  loginCommand: string;
  /** `parcels doctor` where the user's ran (their --profile, --base-url, --sandbox), to run again. */
  againCommand: string;
  /** How to start a sandbox over, for a moved test clock: the embedded one's reset, a served one's reset (when its URL was typed) or fresh start. */
  startOver: { reset: string; serve: string; resetServed?: string };
  /** Builds the probes' client (ctx.client): one attempt each, on the doctor's clock, telling it every answer's skew. */
  client: (options: ClientOptions) => ApiClient;
}): Promise<ServiceFindings> {
  const { settings, required } = input;
  let measured: number | undefined;
  let testClock = false;
  const client = input.client({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    retries: 0,
    now: () => input.now() * 1000,
    onSkew: (o) => {
      if (measured !== undefined) return;
      measured = o.seconds;
      testClock = o.testClock;
    },
  });
  let probes: Record<Scope, Probe>;
  try {
    probes = await probeScopes(client, input.signal);
  } finally {
    await client.close();
  }
  const first = probes['deliveries:read'];
  const unknown = Object.fromEntries(SCOPES.map((s) => [s, 'unknown'])) as Record<Scope, ScopeState>;
  const scopeChecks = (): CheckResult[] => SCOPES.map((scope) => scopeCheck(scope, probes[scope], required.includes(scope), settings, input));
  const url = settings.baseUrl;
  const error = first.error;

  if (error !== undefined && !(error instanceof ApiError)) {
    const needs = 'needs an answer from the host';
    const checks = [
      failure('host', `${url} did not answer: ${error.message}`, 'check the base URL (--base-url, PARCELS_BASE_URL or the profile) and the network', EXIT.UNAVAILABLE),
      skipped('key', needs),
      ...SCOPES.map((s) => skipped(`scope ${s}`, needs)),
      skipped('clock', needs),
    ];
    return { checks, latencyMs: null, skewS: null, scopes: unknown };
  }

  const checks: CheckResult[] = [];
  let scopes = Object.fromEntries(SCOPES.map((s) => [s, scopeState(probes[s])])) as Record<Scope, ScopeState>;
  if (error !== undefined && (error.status >= 500 || error.status === 429)) {
    // A failing or rate-limiting service says nothing about the key.
    checks.push(
      error.status === 429
        ? failure('host', `${url} answered 429: rate limited`, `wait a minute and run \`${input.againCommand}\` again`, EXIT.RATE_LIMITED)
        : failure('host', `${url} answered ${error.status}: ${error.message}`, 'the service is failing or unavailable: try again later', EXIT.UNAVAILABLE),
      skipped('key', 'the service did not get as far as the key'),
      ...scopeChecks(),
    );
  } else if (error?.status === 401) {
    checks.push(
      ok('host', `${url} answered in ${first.ms} ms`),
      failure('key', `refused (invalid or expired): ${error.message}`, keyFix(settings, input.loginCommand), EXIT.AUTH),
      ...SCOPES.map((s) => skipped(`scope ${s}`, 'needs an accepted key')),
    );
    scopes = unknown;
  } else {
    checks.push(ok('host', `${url} answered in ${first.ms} ms`), ok('key', `accepted (from ${keySource(settings)})`), ...scopeChecks());
  }

  const skewS = measured === undefined ? null : beyondNoise(measured);
  const trusted = testClock && trustsTestClock({ embedded: settings.sources.baseUrl === 'sandbox', baseUrl: settings.baseUrl, markedSandbox: settings.markedSandbox === true });
  const startOver =
    settings.sources.baseUrl === 'sandbox'
      ? `\`${input.startOver.reset}\` (it deletes every parcel, event and attempt)`
      : input.startOver.resetServed !== undefined
        ? `\`${input.startOver.resetServed}\` (it empties the sandbox back to its seed, its clock at real time)`
        : `restart it on a new database, e.g. \`${input.startOver.serve}\` (it starts empty: no data is kept)`;
  checks.push(clockCheck(skewS, testClock ? (trusted ? 'trusted' : 'untrusted') : 'none', startOver));
  return { checks, latencyMs: first.ms, skewS, scopes };
}

function keySource(settings: Settings): string {
  if (settings.sources.apiKey === 'env') return 'PARCELS_API_KEY';
  if (settings.sources.apiKey === 'sandbox') return 'the sandbox';
  return `profile "${settings.profile}"`;
}

function scopeCheck(scope: Scope, p: Probe, required: boolean, settings: Settings, commands: { loginCommand: string; againCommand: string }): CheckResult {
  const name = `scope ${scope}`;
  const state = scopeState(p);
  if (state === 'held') return ok(name, 'held');
  if (state === 'missing') {
    const error = p.error as ApiError;
    const detail = scope === 'deliveries:write' ? writeRefusal(error) : `missing (403: ${error.message})`;
    const fix = /verif/i.test(detail) && !/scope/i.test(detail) ? 'verify the organisation in the API console' : scopeFix(scope, settings, commands.loginCommand);
    return required
      ? failure(name, `${detail}, and --require-scope ${scope} was given`, fix, EXIT.AUTH)
      : warning(name, detail, fix);
  }
  const why = p.error === undefined ? 'no answer' : p.error instanceof ApiError ? `${p.error.status}: ${p.error.message}` : p.error.message;
  const detail = `unknown: the probe got ${why}`;
  const fix = `run \`${commands.againCommand}\` again later`;
  return required ? failure(name, `${detail}, and --require-scope ${scope} was given`, fix, EXIT.UNAVAILABLE) : warning(name, detail, fix);
}

/** A 403 on the write probe: the scope or the organisation's verification, when the error says which. */
function writeRefusal(error: ApiError): string {
  const said = `${error.code} ${error.message}`;
  if (/verif/i.test(said) && !/scope/i.test(said)) return `organisation not verified (403: ${error.message})`;
  if (/scope|deliveries:write/i.test(said)) return `write scope missing (403: ${error.message})`;
  return `write scope missing or organisation not verified (403: ${error.message})`;
}

/** The clock check; a test clock (Parcels-Test-Clock) counts only where trustsTestClock allows it. */
function clockCheck(skewS: number | null, testClock: 'none' | 'trusted' | 'untrusted', startOver: string): CheckResult {
  if (skewS === null) return skipped('clock', 'no answer carried a Date header');
  const size = Math.abs(skewS);
  const apart = `${spokenDuration(size)} ${skewS > 0 ? 'behind' : 'ahead of'}`;
  // Information, not a fault of this machine: how far the test clock was moved, and how to start over.
  if (testClock === 'trusted') return ok('clock', `the sandbox runs a test clock, moved on purpose${size === 0 ? '' : `: this machine's clock is ${apart} it`}; to start over: ${startOver}`);
  const said = testClock === 'untrusted' ? ' (it says it runs a test clock, which is believed only from a sandbox)' : '';
  const detail = `${size === 0 ? 'in step with the service' : `this machine's clock is ${apart} the service`}${said}`;
  const fix = "synchronise this machine's clock (NTP): event and attempt times more than 5 minutes ahead are rejected";
  if (size > SKEW_FAIL_S) return failure('clock', detail, fix, EXIT.REJECTED);
  if (size > SKEW_WARN_S) return warning('clock', detail, fix);
  return ok('clock', detail);
}
