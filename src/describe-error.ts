import type { Context } from './context.js';
import type { ErrorInfo } from './io/render.js';
import { ApiError, CancelledError, ConflictError, EXIT, SandboxUnavailableError, NetworkError, NotLoggedInError, UsageError, errorCodeFor, exitCodeFor } from './errors.js';
import { matchRoute } from './schemas/routes.js';


/** Turns any thrown value into what renderError prints; the one place hints are written. */
export async function describeError(error: unknown, ctx: Context): Promise<ErrorInfo> {
  const exitCode = exitCodeFor(error);
  const code = errorCodeFor(error);
  if (error instanceof UsageError) {
    return { message: error.message, code, exitCode, field: error.field, hint: error.hint };
  }
  if (error instanceof ApiError) {
    return {
      message: error.message,
      status: error.status,
      code,
      exitCode,
      hint: error.hint ?? (await hintForStatus(error, ctx)),
      ...validationDetails(error.body),
    };
  }
  if (error instanceof NetworkError || error instanceof ConflictError || error instanceof NotLoggedInError || error instanceof SandboxUnavailableError) {
    return { message: error.message, code, exitCode, hint: error.hint };
  }
  if (error instanceof CancelledError) return { message: error.message, code, exitCode };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `unexpected failure: ${message}`, code, exitCode: EXIT.UNEXPECTED };
}

async function profileName(ctx: Context): Promise<string> {
  try {
    return (await ctx.settings()).profile;
  } catch {
    return ctx.globals.profile ?? 'default';
  }
}

async function hintForStatus(error: ApiError, ctx: Context): Promise<string | undefined> {
  switch (error.status) {
    case 401:
      return `the API key was refused (invalid or expired): run \`parcels auth login --profile ${await profileName(ctx)}\` with a valid key`;
    case 403: {
      const scope = error.request ? requiredScope(error.request.method, error.request.path) : undefined;
      const needs = scope ? `this route needs the scope "${scope}"` : 'the key lacks a permission this route needs';
      return `${needs}; create a key with it in the API console, then run \`parcels auth login --profile ${await profileName(ctx)}\` (an unverified organisation cannot write at all)`;
    }
    case 404:
      return error.request?.path.startsWith('/deliveries/v1/parcels/')
        ? "check the id (the parcel's entry_id UUID) and that it belongs to your organisation"
        : undefined;
    case 409:
      return 'the Idempotency-Key was already used with a different body or route: send a new key (omit --idempotency-key to get one)';
    case 412:
      return 'the parcel changed since you read it: run `parcels get ID` to see the latest version and ETag, then patch again (or add --refresh)';
    case 429:
      return error.retryAfter !== undefined
        ? `rate limited: wait ${error.retryAfter} s and try again (or raise --retries)`
        : 'rate limited: wait a moment and try again (or raise --retries)';
    default:
      return error.status >= 500 ? 'the service failed or is unavailable: try again later (raise --retries to retry longer)' : undefined;
  }
}

function requiredScope(method: string, path: string): string | undefined {
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
