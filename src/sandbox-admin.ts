import type { Context } from './context.js';
import { ApiError, NetworkError, UsageError } from './errors.js';
import { isInspectorLoginPath } from './schemas/inspector.js';
import { isRecord } from './schemas/record.js';
import type { ClockAction, FaultRates, FaultRuleInput } from './schemas/sandbox-admin.js';
import type { LogFilter } from './schemas/log-filter.js';
import { logFilterQuery } from './schemas/log-filter.js';

import { prepareDefaultSandboxDb } from './config/paths.js';
import { findAdminToken, ADMIN_TOKEN_ENV } from './config/admin-token.js';
import type { ApiClient, RouteCall } from './api/http.js';
import type { AdminRouteName } from './schemas/routes.js';
import { dryRunRecorder } from './api/dry-run.js';
import type { CredentialSource } from './api/dry-run.js';
import { shellQuote } from './hint/shell.js';
import { provenBaseUrl } from './api/sandbox-proof.js';
import { isLoopbackUrl } from './schemas/host.js';

/** A page of the request log. */
export interface LogPage {
  entries: Array<Record<string, unknown>>;
  latest: number;
  /** The sandbox answered while stopping on purpose: a follower ends (exit 0). */
  stopping?: boolean;
}

/** What the `parcels sandbox …` commands do to a sandbox, embedded (--sandbox) or over its admin route. */
export interface SandboxAdmin {
  clock(): Promise<unknown>;
  moveClock(action: ClockAction, body: Record<string, unknown>): Promise<unknown>;
  scenario(id: string): Promise<unknown>;
  simulate(id: string, scenario: string): Promise<unknown>;
  /** `waitMs` undefined: a one-time read; a number (0 for the first page): a follower's poll. */
  logs(after: number, waitMs: number | undefined, bodies: boolean, filter: LogFilter): Promise<LogPage>;
  /** A fresh one-time login link of the web inspector. */
  inspectorLink(): Promise<{ url: string; expires_in_s: number }>;
  /** The admin route's /_sandbox/v1/faults: answers as it came. */
  faults: {
    list(): Promise<unknown>;
    add(input: FaultRuleInput): Promise<unknown>;
    remove(id: string): Promise<unknown>;
    clear(): Promise<unknown>;
    setRates(change: Partial<FaultRates>): Promise<unknown>;
  };
  /** Empties the sandbox (or tenant) back to its seed, its clock back to real time. */
  reset(): Promise<unknown>;
  createTenant(name: string, seed: unknown): Promise<unknown>;
  tenants(): Promise<unknown>;
  removeTenant(name: string): Promise<unknown>;
  /** The base URL as the user gave it (tenant paths are shown on it). */
  readonly baseUrl: string;
  /** The longest a log request may wait for news without the request timing out, in ms. */
  readonly longestWaitMs: number;
  close(): Promise<void>;
}

/**
 * The login link a sandbox answered, as a URL on its own origin: a path the sandbox makes
 * (`/_sandbox/ui/#code=…`) and nothing else, so a server's `//elsewhere/…` or a missing path is
 * never printed as a link to open.
 */
function ownInspectorLink(answer: unknown, baseUrl: string): { url: string; expires_in_s: number } {
  const path = isRecord(answer) ? answer.path : undefined;
  const expires = isRecord(answer) ? answer.expires_in_s : undefined;
  if (!isInspectorLoginPath(path) || typeof expires !== 'number' || !Number.isSafeInteger(expires) || expires <= 0) {
    throw new NetworkError('the sandbox did not answer a login link of its own inspector page (/_sandbox/ui/#code=… and expires_in_s)', 'bad_response');
  }
  return { url: new URL(path, baseUrl).href, expires_in_s: expires };
}

/** The library throws plain errors; the commands report them as the admin route would answer. */
function asApiError(err: unknown): never {
  if (err instanceof Error && err.name === 'UnknownScenarioError') throw new ApiError(422, 'unknown_scenario', err.message, undefined);
  if (err instanceof Error && err.name === 'ClockError') throw new ApiError(422, 'validation_failed', err.message, undefined);
  if (err instanceof RangeError && err.message.startsWith('no parcel')) throw new ApiError(404, 'parcel_not_found', err.message, undefined);
  throw err;
}

/** Faults live in a running sandbox's memory: the embedded one ends with the command. */
function noFaults(): never {
  throw new UsageError("the embedded sandbox (--sandbox) keeps no faults between commands; aim them at a running `parcels sandbox serve` (--base-url URL), or in a test through the library's sandbox.faults", '--sandbox');
}

function noTenants(): never {
  throw new UsageError('the embedded sandbox (--sandbox) keeps no tenants between commands; manage the tenants of a running `parcels sandbox serve` with --base-url URL', '--sandbox');
}

async function embedded(ctx: Context): Promise<SandboxAdmin> {
  const { loadSandbox } = await import('./sandbox-loader.js');
  const { startSandbox } = await loadSandbox();
  const sandbox = await startSandbox({ db: await prepareDefaultSandboxDb(ctx.env), port: 0 });
  const attempt = async <T>(fn: () => T): Promise<T> => {
    try {
      return fn();
    } catch (err) {
      return asApiError(err);
    }
  };
  return {
    clock: () => attempt(() => sandbox.clock.status()),
    moveClock: (action, body) =>
      attempt(() => {
        if (action === 'advance') return sandbox.clock.advance(body.ms as number);
        if (action === 'set') return sandbox.clock.set(body.to as number);
        if (action === 'freeze') return sandbox.clock.freeze();
        if (action === 'resume') return sandbox.clock.resume();
        return sandbox.clock.setSpeed(body.speed as number);
      }),
    scenario: (id) =>
      attempt(() => {
        const run = sandbox.scenarios.get(id);
        if (run === undefined) throw new ApiError(404, 'scenario_not_found', `parcel ${id} has no scenario`, undefined);
        return run;
      }),
    simulate: (id, scenario) => attempt(() => sandbox.scenarios.assign(id, scenario)),
    logs: () => {
      throw new UsageError('the embedded sandbox (--sandbox) keeps no request log between commands; read the log of a running `parcels sandbox serve` with --base-url URL', '--sandbox');
    },
    inspectorLink: () => {
      throw new UsageError('the embedded sandbox (--sandbox) serves no inspector page; start `parcels sandbox serve` and run `parcels sandbox ui` without --sandbox', '--sandbox');
    },
    faults: { list: noFaults, add: noFaults, remove: noFaults, clear: noFaults, setRates: noFaults },
    reset: () => attempt(() => sandbox.reset()),
    createTenant: () => noTenants(),
    tenants: () => noTenants(),
    removeTenant: () => noTenants(),
    baseUrl: sandbox.url,
    longestWaitMs: 0,
    close: () => sandbox.close(),
  };
}

async function remote(ctx: Context): Promise<SandboxAdmin> {
  const settings = await ctx.settings();
  if (settings.baseUrl === undefined) {
    throw new UsageError(`no sandbox base URL for profile "${settings.profile}": give --base-url URL (the line \`parcels sandbox serve\` prints), or use --sandbox`, '--base-url');
  }
  const { token, file, stale } = await findAdminToken(ctx.env, settings.baseUrl);
  if (token === undefined) {
    const where = file === undefined ? '' : stale ? ` (the token file ${file} was left by a sandbox that no longer runs)` : ` (no token file ${file})`;
    throw new UsageError(`no admin token for the sandbox at ${settings.baseUrl}${where}: set ${ADMIN_TOKEN_ENV}, or run the sandbox on this machine with \`parcels sandbox serve\``, ADMIN_TOKEN_ENV);
  }
  // A dry run's curl line reads the token where this command found it, and never prints it.
  const credential: CredentialSource =
    file === undefined
      ? { shell: `"$${ADMIN_TOKEN_ENV}"`, note: `# the admin token is read from $${ADMIN_TOKEN_ENV}` }
      : { shell: `"$(head -n1 ${shellQuote(file)})"`, note: `# the admin token is read from the first line of ${file}, the file \`parcels sandbox serve\` wrote` };
  // A loopback listener first proves it holds the token; the token then goes to that address only.
  const baseUrl =
    ctx.globals.dryRun || !isLoopbackUrl(settings.baseUrl) ? settings.baseUrl : await provenBaseUrl(settings.baseUrl, token, { timeoutMs: settings.timeoutMs, signal: ctx.signal });
  const client: ApiClient = ctx.client({
    baseUrl,
    apiKey: token,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    dryRun: ctx.globals.dryRun ? dryRunRecorder((text) => void ctx.io.stdout.write(text), { credential }) : undefined,
    credential,
  });
  const data = async (name: AdminRouteName, call: RouteCall = {}) => (await client.route(name, { ...call, signal: ctx.signal })).data;
  return {
    clock: () => data('sandbox.clock.get'),
    moveClock: (action, body) => data('sandbox.clock.move', { params: { action }, body }),
    scenario: (id) => data('sandbox.scenario.get', { params: { id } }),
    simulate: (id, scenario) => data('sandbox.scenario.assign', { params: { id }, body: { scenario } }),
    // A follower always sends `wait` (0 for its first page): a stopping sandbox waits for it.
    logs: async (after, waitMs, bodies, filter) => (await data('sandbox.logs.list', { query: { after, wait: waitMs, bodies: bodies ? 'true' : undefined, ...logFilterQuery(filter) } })) as LogPage,
    inspectorLink: async () => ownInspectorLink(await data('sandbox.inspector.login', { body: {} }), baseUrl),
    faults: {
      list: () => data('sandbox.faults.list'),
      add: (input) => data('sandbox.faults.add', { body: input }),
      remove: (id) => data('sandbox.fault.remove', { params: { id } }),
      clear: () => data('sandbox.faults.clear'),
      setRates: (change) => data('sandbox.faults.rates', { body: change }),
    },
    reset: () => data('sandbox.reset', { body: {} }),
    createTenant: (name, seed) => data('sandbox.tenants.create', { body: seed === undefined ? { name } : { name, seed } }),
    tenants: () => data('sandbox.tenants.list'),
    removeTenant: (name) => data('sandbox.tenants.remove', { params: { name } }),
    baseUrl: settings.baseUrl,
    // Leave the request time to answer after the server's wait ends.
    longestWaitMs: Math.max(Math.floor(settings.timeoutMs / 2), Math.min(25_000, settings.timeoutMs - 2000)),
    close: () => client.close(),
  };
}

/** The sandbox the command talks to: the embedded one with --sandbox (no token), else the one at the base URL. */
export function sandboxAdmin(ctx: Context): Promise<SandboxAdmin> {
  return ctx.globals.sandbox ? embedded(ctx) : remote(ctx);
}
