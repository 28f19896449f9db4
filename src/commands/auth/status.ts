import { maskKey } from '../../api/redact.js';
import { otherCommand, sameCommand } from '../../hint/hint.js';
import type { Settings } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { ExitCode } from '../../errors.js';
import { ApiError, CheckFailedError, EXIT } from '../../errors.js';
import { defineCommand } from '../../command-kit/types.js';
import type { authCommands } from '../../definitions/auth.js';
import { presentRecord } from '../../io/present.js';
import { probe } from '../../api/probe.js';

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
    };
    // Without a key there is nothing to ask the service: the local answer is the whole answer.
    const problem = offline || settings.apiKey === undefined ? undefined : await checkOnline(ctx, settings);
    if (problem === undefined) {
      await show(ctx, record);
      return;
    }
    await show(ctx, { ...record, logged_in: false, problem: problem.problem });
    throw new CheckFailedError(problem.problem, problem.exitCode, problem.hint);
  },
});

/** The record holds no service codes, so no names are looked up: --offline sends nothing at all. */
function show(ctx: Context, record: Record<string, unknown>): Promise<void> {
  return presentRecord(ctx, record, { fields: ctx.fields(), now: ctx.now() });
}

/** One read request with the key (GET couriers, as `auth login` does): undefined when it was accepted. */
async function checkOnline(ctx: Context, settings: Settings): Promise<Problem | undefined> {
  const { profile, baseUrl } = settings;
  if (baseUrl === undefined) {
    return {
      problem: 'no base URL to check the key against',
      exitCode: EXIT.USAGE,
      hint: `run \`${otherCommand(ctx.commandLine, ['auth', 'login', '--profile', profile, '--base-url', 'URL'], [])}\`, or set PARCELS_BASE_URL`,
    };
  }
  const client = await ctx.api();
  const result = await probe(() => client.route('couriers.list', { signal: ctx.signal }));
  const error = result.error;
  // A 403 is an accepted key without the read scope: authenticated all the same.
  if (error === undefined || (error instanceof ApiError && error.status === 403)) return undefined;
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
