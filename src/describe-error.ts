import { spokenDuration } from './schemas/time-text.js';
import { FLAG_FOR_FIELD } from './args/field-flags.js';
import type { Context } from './context.js';
import type { ErrorInfo } from './io/render.js';
import type { OutputFormat } from './io/output-format.js';
import { renderError } from './io/render.js';
import { ApiError, CancelledError, CheckFailedError, ConflictError, EXIT, JqFalseError, NetworkError, NotDeliveredError, NotLoggedInError, NotValidError, SandboxUnavailableError, UsageError, errorCodeFor, exitCodeFor } from './errors.js';
import { matchRoute } from './schemas/routes.js';
import type { Scope } from './schemas/routes.js';
import { otherCommand, renderHint, sameCommand, typedFlag } from './hint/hint.js';
import type { CommandLine } from './hint/hint.js';
import { describeUnsent, mayHaveBeenApplied, moreTime, parcelIdOf } from './describe-unsent.js';
import type { CommandFlag, GlobalFlag } from './schemas/flag-name.js';
import type { definitions } from './definitions/table.js';

/**
 * Turns any thrown value into what renderError prints; the one place hints are written. Every
 * command a hint names is the user's own command line (ctx.commandLine) with the suggested change, so it
 * works when pasted: same --sandbox/--profile/--base-url, same filters, the real parcel id.
 */
export async function describeError(error: unknown, ctx: Context): Promise<ErrorInfo> {
  const exitCode = exitCodeFor(error);
  const code = errorCodeFor(error);
  if (error instanceof UsageError) return describeUsageError(error, ctx.commandLine);
  if (error instanceof ApiError) {
    const said = inUserTerms(
      {
        message: error.message,
        status: error.status,
        code,
        exitCode,
        hint: error.hint ?? (await hintForStatus(error, ctx)),
        ...validationDetails(error.body),
      },
      ctx.commandLine,
    );
    return error.unsent === undefined ? said : await describeUnsent(error, error.unsent, said, ctx);
  }
  if (error instanceof NetworkError) {
    if (error.unsent !== undefined) return await describeUnsent(error, error.unsent, { message: error.message, code, exitCode, hint: error.hint }, ctx);
    return await describeNetworkError(error, ctx);
  }
  if (error instanceof ConflictError) {
    const hint = error.parcelId === undefined ? error.hint : `run \`${otherCommand(ctx.commandLine, ['get', error.parcelId])}\` to see the current values, then retry the change`;
    return { message: error.message, code, exitCode, hint };
  }
  if (error instanceof SandboxUnavailableError || error instanceof CheckFailedError) {
    return { message: error.message, code, exitCode, hint: error.hint };
  }
  if (error instanceof NotLoggedInError) return { message: error.message, code, exitCode, hint: renderHint(error.hintParts, ctx.commandLine) };
  if (error instanceof CancelledError || error instanceof NotValidError || error instanceof NotDeliveredError || error instanceof JqFalseError) return { message: error.message, code, exitCode };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `unexpected failure: ${message}`, code, exitCode: EXIT.UNEXPECTED };
}

/**
 * Bad input refused before anything was sent (exit 2); needs no context, so it also serves before one
 * exists (then a hint's commands are rendered without the user's where-flags).
 */
export function describeUsageError(error: UsageError, line?: CommandLine): ErrorInfo {
  const hint = error.hintParts === undefined ? error.hint : renderHint(error.hintParts, line);
  const info: ErrorInfo = { message: error.message, code: errorCodeFor(error), exitCode: exitCodeFor(error), field: error.field, hint };
  if (error.details !== undefined) info.details = [...error.details];
  return info;
}

/**
 * A write with an Idempotency-Key whose answer was lost may have been applied. Re-running it with
 * the same key is safe: the service answers a repeat with the first result and applies it once.
 */
async function describeNetworkError(error: NetworkError, ctx: Context): Promise<ErrorInfo> {
  const base = { code: error.code, exitCode: EXIT.UNAVAILABLE };
  const key = error.request?.idempotencyKey;
  const longer = await moreTime(error, ctx);
  if (key === undefined || !mayHaveBeenApplied(error)) {
    if (longer === undefined) return { ...base, message: error.message, hint: error.hint };
    return { ...base, message: error.message, hint: `give the service more time: \`${sameCommand(ctx.commandLine, longer)}\`` };
  }
  const rerun = sameCommand(ctx.commandLine, { drop: ['--idempotency-key', ...(longer?.drop ?? [])], add: [...(longer?.add ?? []), '--idempotency-key', key] });
  return {
    ...base,
    message: `${error.message}; the ${error.request?.method ?? 'request'} may have been applied (Idempotency-Key ${key})`,
    hint: `re-run it with the same key${longer === undefined ? '' : ' and more time'} to find out safely (a repeat is answered with the first result, never applied twice): \`${rerun}\``,
  };
}

async function profileName(ctx: Context): Promise<string> {
  try {
    return (await ctx.settings()).profile;
  } catch {
    return ctx.globals.profile ?? 'default';
  }
}

async function keyFromEnvironment(ctx: Context): Promise<boolean> {
  try {
    return (await ctx.target()).sources.apiKey === 'env';
  } catch {
    return false;
  }
}

/**
 * The form an error is printed in: the output's (one JSON line with JSON output), but text when
 * only --jq asked for JSON and a person reads stderr (a jq error as a JSON blob helps no one there),
 * and text when the output setting itself is what is wrong.
 */
export function errorFormat(ctx: Context): OutputFormat {
  try {
    const format = ctx.outputFormat();
    const onlyJq = ctx.globals.jq !== undefined && ctx.globals.output === undefined;
    return onlyJq && ctx.io.stderrIsTTY ? 'table' : format;
  } catch {
    return 'table';
  }
}

/**
 * Several failures of one command (`track A B`, one per parcel not read), each rendered as the
 * command's one error would be, in order: the exit code is the first one's.
 */
export async function reportEach(ctx: Context, errors: readonly unknown[]): Promise<number> {
  let first: number | undefined;
  for (const error of errors) {
    const described = await describeError(error, ctx);
    await renderError(ctx.io, described, { format: errorFormat(ctx) });
    first ??= described.exitCode;
  }
  return first ?? EXIT.OK;
}

/** `parcels auth login` for the profile in use, with the --base-url the user typed (or `baseUrl`, the host the key is wanted for). */
/** `parcels auth login` where the user's command ran: their --profile (else the one in use) and --base-url, quoted for the shell. */
export async function loginCommand(ctx: Context, baseUrl?: string): Promise<string> {
  const added: Partial<Record<GlobalFlag, string>> = {};
  if (!typedFlag(ctx.commandLine, '--profile')) added['--profile'] = await profileName(ctx);
  if (baseUrl !== undefined && !typedFlag(ctx.commandLine, '--base-url')) added['--base-url'] = baseUrl;
  return otherCommand(ctx.commandLine, ['auth', 'login', ...Object.entries(added).flat()], ['--profile', '--base-url']);
}

/** Refusals of a --cursor (spec 4.1: a cursor continues the walk it came from). */
const CURSOR_CODES = new Set(['cursor_mismatch', 'invalid_cursor']);

async function hintForStatus(error: ApiError, ctx: Context): Promise<string | undefined> {
  if (CURSOR_CODES.has(error.code) && typedFlag(ctx.commandLine, '--cursor')) {
    return `give the cursor with the filters of the command that printed it, or start again from the first page: \`${sameCommand(ctx.commandLine, { drop: ['--cursor'] })}\``;
  }
  switch (error.status) {
    case 401:
      if (await keyFromEnvironment(ctx)) {
        return 'the key in PARCELS_API_KEY was refused (invalid or expired); logging in cannot help while it is set: set PARCELS_API_KEY to a valid key, or unset it to use the profile\'s saved key';
      }
      return `the API key was refused (invalid or expired): run \`${await loginCommand(ctx)}\` with a valid key`;
    case 403: {
      const scope = error.request ? requiredScope(error.request.method, error.request.path) : undefined;
      const needs = scope ? `this route needs the scope "${scope}"` : 'the key lacks a permission this route needs';
      const then = (await keyFromEnvironment(ctx)) ? 'then put it in PARCELS_API_KEY' : `then run \`${await loginCommand(ctx)}\``;
      // Verification only bars writes (spec 5.4): a read refused is the scope alone.
      const unverified = scope === undefined || WRITE_SCOPES.has(scope) ? ' (an unverified organisation cannot write at all)' : '';
      return `${needs}; create a key with it in the API console, ${then}${unverified}`;
    }
    case 404:
      return error.request?.path.startsWith('/deliveries/v1/parcels/')
        ? "check the id (the parcel's entry_id UUID) and that it belongs to your organisation"
        : undefined;
    case 409:
      return hintForConflict(error, ctx);
    case 412: {
      const id = parcelIdOf(error);
      if (id === undefined || error.request?.method !== 'PATCH') return undefined;
      const refresh = sameCommand(ctx.commandLine, { drop: ['--if-match', '--refresh'], add: ['--refresh'] });
      return `the parcel changed since you read it: run \`${otherCommand(ctx.commandLine, ['get', id])}\` to see the latest version, or \`${refresh}\` to apply your change to it`;
    }
    case 429:
      return error.retryAfter !== undefined
        ? `rate limited: wait ${spokenDuration(error.retryAfter)} and try again (or raise --retries)`
        : 'rate limited: wait a moment and try again (or raise --retries)';
    default:
      return error.status >= 500 ? 'the service failed or is unavailable: try again later (raise --retries to retry longer)' : undefined;
  }
}

/** 409 hints follow the service's error code; an unknown code gets none rather than a guess. */
function hintForConflict(error: ApiError, ctx: Context): string | undefined {
  const id = parcelIdOf(error);
  switch (error.code) {
    case 'idempotency_key_reused':
      return `that Idempotency-Key was already used for another request: run \`${sameCommand(ctx.commandLine, { drop: ['--idempotency-key'] })}\` to send a new key`;
    case 'parcel_delivered':
      return 'a delivered parcel (status 4) is final: it takes no more events or attempts';
    case 'invalid_transition':
      return id === undefined
        ? 'the parcel\'s current status does not allow that change'
        : `the parcel's current status does not allow that change: run \`${otherCommand(ctx.commandLine, ['get', id])}\` to see its status`;
    default:
      return undefined;
  }
}

/** The scopes of the routes that change data: only these an unverified organisation is refused. */
const WRITE_SCOPES: ReadonlySet<Scope> = new Set(['deliveries:write']);

function requiredScope(method: string, path: string): Scope | undefined {
  const match = matchRoute(method, path.split('?')[0] ?? path);
  return match.route?.scope;
}

/** Field-level details from a validation error body, when the server gives them in a recognisable form. */
function validationDetails(body: unknown): Pick<ErrorInfo, 'field' | 'details'> {
  if (typeof body !== 'object' || body === null) return {};
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return {};
  const { field, details, message } = error as { field?: unknown; details?: unknown; message?: unknown };
  const list = Array.isArray(details)
    ? details.flatMap((d: unknown) => {
        if (typeof d !== 'object' || d === null) return [];
        const { field: f, message: m } = d as { field?: unknown; message?: unknown };
        return typeof f === 'string' && typeof m === 'string' ? [{ field: f, message: m }] : [];
      })
    : [];
  // A single detail that only repeats the message adds nothing.
  const repeats = list.length === 1 && typeof message === 'string' && message.includes(list[0]?.message ?? '');
  return {
    ...(typeof field === 'string' ? { field } : {}),
    ...(list.length > 0 && !repeats ? { details: list } : {}),
  };
}

/** `patch --set field=value`: a field the user set by its name. */
const SET_FLAG: CommandFlag<typeof definitions.patch> = '--set';

/** The flag the user typed for a request field (`parcel_weight` → `--weight`, or `--set parcel_weight`), if any. */
function typedFlagFor(field: string, line: CommandLine): string | undefined {
  const leaf = field.replace(/^delivered\./, '');
  const dashed = `--${leaf.replace(/_/g, '-')}`;
  const flag = FLAG_FOR_FIELD[leaf] ?? line.flags.find((syntax) => syntax.long === dashed)?.long;
  if (flag !== undefined && typedFlag(line, flag)) return flag;
  const set = line.words.some((word, i) => line.words[i - 1] === SET_FLAG && (word.startsWith(`${leaf}=`) || word.startsWith(`${field}=`)));
  return set ? `--set ${leaf}` : undefined;
}

/**
 * A refusal from the service names its fields; the user typed flags. Fields the user set with a
 * flag are renamed to that flag (in the field, the details and a message that starts with it);
 * fields that came from --data keep their names.
 */
function inUserTerms(info: ErrorInfo, line: CommandLine): ErrorInfo {
  const rename = (field: string): string => typedFlagFor(field, line) ?? field;
  const out: ErrorInfo = { ...info };
  if (info.field !== undefined) {
    const flag = rename(info.field);
    out.field = flag;
    if (info.message.startsWith(`${info.field} `)) out.message = `${flag}${info.message.slice(info.field.length)}`;
  }
  if (info.details !== undefined) out.details = info.details.map((d) => ({ field: rename(d.field), message: d.message }));
  return out;
}
