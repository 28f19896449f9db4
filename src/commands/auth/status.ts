import { maskKey } from '../../api/redact.js';
import { hintCommand, otherCommand, sameCommand } from '../../hint/hint.js';
import type { Settings } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { ExitCode } from '../../errors.js';
import { ApiError, CheckFailedError, EXIT, NotLoggedInError } from '../../errors.js';
import type { NetworkError } from '../../errors.js';
import { defineCommand } from '../../command-kit/types.js';
import type { authCommands } from '../../definitions/auth.js';
import { forPeople, presentRecord } from '../../io/present.js';
import { renderMessage } from '../../io/render.js';
import { SCOPES, probeScopes, scopeState } from '../../api/probe.js';

export interface StatusOptions {
  offline: boolean;
}

/** Why the key could not be confirmed: what to print, the exit code and the hint. */
interface Problem {
  problem: string;
  exitCode: ExitCode;
  hint: string;
}

export default defineCommand<typeof authCommands.authStatus, StatusOptions>({
  parse: ({ flags }) => ({ offline: flags.offline }),
  async run({ offline }, ctx) {
    // With --sandbox, the status of what requests would use: the embedded sandbox.
    const settings = await ctx.target();
    const record: Record<string, unknown> = {
      profile: settings.profile,
      base_url: settings.baseUrl ?? null,
      base_url_from: settings.sources.baseUrl,
      api_key: settings.apiKey === undefined ? null : maskKey(settings.apiKey),
      api_key_from: settings.apiKey === undefined ? null : settings.sources.apiKey,
      logged_in: settings.apiKey !== undefined,
      checked: false,
      scopes: null,
    };
    if (settings.apiKey === undefined) {
      // As gh does: not logged in is a failure of its own (exit 3), with the command that logs in.
      await show(ctx, record);
      // Without a base URL, login needs one: the hint says where it goes.
      const login = settings.baseUrl === undefined ? hintCommand(['auth', 'login', '--profile', settings.profile, '--base-url', 'URL'], []) : hintCommand(['auth', 'login', '--profile', settings.profile], ['--base-url']);
      throw new NotLoggedInError(`not logged in: no API key for profile "${settings.profile}"`, ['run ', login, ', or set PARCELS_API_KEY']);
    }
    if (offline) {
      await show(ctx, record);
      if (forPeople(ctx)) await renderMessage(ctx.io, 'Not checked (--offline): whether the service accepts the key, and which scopes it holds', 'info');
      return;
    }
    const checked = await checkOnline(ctx, settings);
    if (checked.problem === undefined) {
      await show(ctx, { ...record, checked: true, scopes: checked.scopes });
      return;
    }
    await show(ctx, { ...record, logged_in: false, checked: true, problem: checked.problem.problem });
    throw new CheckFailedError(checked.problem.problem, checked.problem.exitCode, checked.problem.hint);
  },
});

/** The record holds no service codes, so no names are looked up: --offline sends nothing at all. */
function show(ctx: Context, record: Record<string, unknown>): Promise<void> {
  return presentRecord(ctx, record, { fields: ctx.fields(), now: ctx.now() });
}

/**
 * One request per scope with the key, as doctor sends them (the couriers list answers "is the key
 * accepted" too): the scopes the key holds, space-separated as OAuth writes them, or the problem.
 */
async function checkOnline(ctx: Context, settings: Settings): Promise<{ scopes: string; problem?: undefined } | { problem: Problem }> {
  const { profile, baseUrl } = settings;
  if (baseUrl === undefined) {
    return {
      problem: {
        problem: 'no base URL to check the key against',
        exitCode: EXIT.USAGE,
        hint: `run \`${otherCommand(ctx.commandLine, ['auth', 'login', '--profile', profile, '--base-url', 'URL'], [])}\`, or set PARCELS_API_KEY`,
      },
    };
  }
  const probes = await probeScopes(await ctx.api(), ctx.signal);
  const held = SCOPES.filter((scope) => scopeState(probes[scope]) === 'held');
  const error = probes['deliveries:read'].error;
  // A 403 is an accepted key without the read scope: authenticated all the same.
  if (error === undefined || (error instanceof ApiError && error.status === 403)) return { scopes: held.join(' ') };
  return { problem: refusal(ctx, settings, error) };
}

function refusal(ctx: Context, settings: Settings, error: ApiError | NetworkError): Problem {
  const { profile, baseUrl } = settings;
  const relogin =
    settings.sources.apiKey === 'env'
      ? 'PARCELS_API_KEY holds the refused key: set it to a valid key, or unset it to use the profile\'s key'
      : `run \`${otherCommand(ctx.commandLine, ['auth', 'login', '--profile', profile], ['--base-url'])}\` with a valid key`;
  if (error instanceof ApiError && error.status === 401) {
    return { problem: `the API key was refused (invalid or expired): ${error.message}`, exitCode: EXIT.AUTH, hint: relogin };
  }
  if (error instanceof ApiError && error.status === 429) {
    return { problem: 'rate limited: the key could not be checked', exitCode: EXIT.RATE_LIMITED, hint: `wait a minute, then run \`${sameCommand(ctx.commandLine)}\` again` };
  }
  const why = error instanceof ApiError ? `answered ${error.status}: ${error.message}` : `did not answer: ${error.message}`;
  return {
    problem: `${baseUrl} ${why}`,
    exitCode: error instanceof ApiError && error.status < 500 ? EXIT.REJECTED : EXIT.UNAVAILABLE,
    hint: `check the base URL and the network, or run \`${sameCommand(ctx.commandLine, { drop: ['--offline'], add: ['--offline'] })}\` for the local settings only`,
  };
}
