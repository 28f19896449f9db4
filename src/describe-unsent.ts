import type { Context } from './context.js';
import type { ErrorInfo } from './io/render.js';
import type { ApiError, UnsentWrite } from './errors.js';
import { NetworkError } from './errors.js';
import { otherCommand, sameCommand } from './hint/hint.js';
import type { FlagName } from './schemas/flag-name.js';

/**
 * The hints of a write the service could not take (describe-error calls these): the user's own
 * command line, changed only so that it sends the same request again or keeps it in the outbox.
 */

/** Failures after which the request may have reached the service (and been applied) before the answer was lost. */
const MAYBE_APPLIED = new Set(['connection_reset', 'timeout', 'bad_response', 'network_error']);

export function mayHaveBeenApplied(error: ApiError | NetworkError): error is NetworkError {
  return error instanceof NetworkError && MAYBE_APPLIED.has(error.code);
}

/**
 * After a timeout the same command would time out again: the change to its command line that runs
 * it with twice the time, and with the retries of the settings rather than any --retries typed
 * (often 0). Undefined for any other failure, or when the settings cannot be read.
 */
export async function moreTime(error: ApiError | NetworkError, ctx: Context): Promise<{ drop: FlagName[]; add: string[] } | undefined> {
  if (!(error instanceof NetworkError) || error.code !== 'timeout') return undefined;
  try {
    return { drop: ['--timeout', '--retries'], add: ['--timeout', String(((await ctx.target()).timeoutMs * 2) / 1000)] };
  } catch {
    return undefined;
  }
}

/** The parcel id in the path of the request that failed, `/deliveries/v1/parcels/{id}[/…]`. */
export function parcelIdOf(error: ApiError | NetworkError): string | undefined {
  return /^\/deliveries\/v1\/parcels\/([^/?]+)/.exec(error.request?.path ?? '')?.[1];
}

/** What describe-error says for `error`, with the hint that sends the write again or queues it. */
export async function describeUnsent(error: ApiError | NetworkError, unsent: UnsentWrite, said: ErrorInfo, ctx: Context): Promise<ErrorInfo> {
  const longer = await moreTime(error, ctx);
  if (unsent.kind === 'patch') return unsentPatch(error, unsent, said, longer, ctx);
  // Only --no-queue keeps a write with queue_writes yes from the outbox: the setting is then not news.
  const settingOn = await ctx.settings().then((settings) => settings.queueWrites, () => false);
  return queueable(error, unsent.pin, said, settingOn, longer, ctx);
}

/**
 * create, events add, attempts add: the same command with `--queue` keeps the request in the
 * outbox (exit 75). It pins what the command filled in (the observation time) and, when the request
 * may have been applied, its Idempotency-Key: a resend is then the very same request, which the
 * service answers with its first result instead of applying it twice.
 */
function queueable(
  error: ApiError | NetworkError,
  pin: readonly [FlagName, string] | undefined,
  said: ErrorInfo,
  settingOn: boolean,
  longer: { drop: FlagName[]; add: string[] } | undefined,
  ctx: Context,
): ErrorInfo {
  const key = mayHaveBeenApplied(error) ? error.request?.idempotencyKey : undefined;
  const pinned: string[] = [...(pin ?? []), ...(key === undefined ? [] : ['--idempotency-key', key])];
  const drop: FlagName[] = ['--no-queue', '--idempotency-key', ...(pin === undefined ? [] : [pin[0]])];
  const queue = sameCommand(ctx.commandLine, { drop, add: [...pinned, '--queue'] });
  const setting = otherCommand(ctx.commandLine, ['config', 'set', 'queue_writes', 'yes'], ['--profile']);
  const keep = `\`${queue}\` keeps it in the outbox to send later (exit 75${settingOn ? '' : `; \`${setting}\` makes that the default`})`;
  if (key === undefined) return { ...said, hint: said.hint === undefined ? keep : `${said.hint}; or ${keep}` };
  const resend = sameCommand(ctx.commandLine, { drop: [...drop, ...(longer?.drop ?? [])], add: [...(longer?.add ?? []), ...pinned] });
  return {
    ...said,
    message: `${error.message}; the ${error.request?.method ?? 'request'} may have been applied (Idempotency-Key ${key})`,
    hint: `re-run it with the same key${longer === undefined ? '' : ' and more time'} to find out safely (a repeat is answered with the first result, never applied twice): \`${resend}\`; or ${keep}`,
  };
}

const IF_MATCH_KEPT: Readonly<Record<Extract<UnsentWrite, { kind: 'patch' }>['ifMatch'], string>> = {
  cached: 'with If-Match of the version you read, so a change made since then is refused (412), never overwritten',
  flag: 'with the same --if-match, so a change made since then is refused (412), never overwritten',
  refresh: 'reading the latest version first, as this one did (--refresh)',
};

/** `patch`: the change was not made (or, after a lost answer, may have been); the same command line sends it again, its If-Match as protective as it was. */
function unsentPatch(error: ApiError | NetworkError, unsent: Extract<UnsentWrite, { kind: 'patch' }>, said: ErrorInfo, longer: { drop: FlagName[]; add: string[] } | undefined, ctx: Context): ErrorInfo {
  const again = `\`${sameCommand(ctx.commandLine, longer ?? {})}\` sends it again ${IF_MATCH_KEPT[unsent.ifMatch]}`;
  if (!unsent.sent || !mayHaveBeenApplied(error)) {
    return { ...said, message: `${error.message}; the change was not made`, hint: `once the service answers, ${again}` };
  }
  const id = parcelIdOf(error);
  const look = id === undefined ? '' : `run \`${otherCommand(ctx.commandLine, ['get', id])}\` to see whether it was, or `;
  return { ...said, message: `${error.message}; the change may have been made before the answer was lost`, hint: `${look}${again}` };
}
