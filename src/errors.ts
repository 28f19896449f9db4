/**
 * Every failure the CLI reports is one of these. Only src/cli.ts turns them into exit codes
 * (see `exitCodeFor`); commands throw, they never exit.
 */

import { renderHint } from './hint/hint.js';
import type { HintPart } from './hint/hint.js';
import type { CheckedWord, FlagName } from './schemas/flag-name.js';
export const EXIT = {
  OK: 0,
  UNEXPECTED: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  REJECTED: 6,
  RATE_LIMITED: 7,
  UNAVAILABLE: 8,
  /** The sandbox cannot run: better-sqlite3, its optional store, is not installed or does not load. */
  SANDBOX_UNAVAILABLE: 9,
  /** `validate-address --exit-status`: the service answered that the address is not valid. */
  NOT_VALID: 10,
  /** `track --watch --fail-on-attempt`: an attempt failed (outcome other than delivered). */
  NOT_DELIVERED: 11,
  /** `--jq … --jq-exit-status`: the filter's last result was false or null, or it gave none (like `jq -e`). */
  JQ_FALSE: 12,
  /** `--queue`: not sent yet, kept in the profile's outbox for `parcels outbox flush` (EX_TEMPFAIL). */
  QUEUED: 75,
  /** Interrupted (Ctrl-C) or a prompt declined: the shell convention 128 + SIGINT. */
  CANCELLED: 130,
  /** Stopped by SIGTERM: 128 + 15. */
  TERMINATED: 143,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Invalid flags or input, caught before anything was sent. */
export class UsageError<Field extends string = never> extends Error {
  override readonly name = 'UsageError';
  /** The flag or field at fault, e.g. `--postal-code` or `delivered.delivered_number`. */
  readonly field?: string;
  constructor(
    message: string,
    /**
     * Checked when it is a literal: a word that looks like a flag must name one that exists
     * (CheckedWord). A subclass that passes one declares it: `extends UsageError<'--from'>`.
     */
    field?: CheckedWord<Field>,
    /** One line telling the user what to do instead. */
    readonly hint?: string,
    /** Each problem found (e.g. in a file a flag names): where, and the rule it breaks. */
    readonly details?: readonly { field: string; message: string }[],
    /** The hint as parts whose commands describe-error renders on the user's command line; `hint` is then their plain form. */
    readonly hintParts?: readonly HintPart[],
  ) {
    super(message);
    this.field = field;
    if (hint === undefined && hintParts !== undefined) this.hint = renderHint(hintParts);
  }
}

/** The flag that sets each request header, where one does. */
const FLAG_FOR_HEADER: Readonly<Record<string, FlagName>> = { 'idempotency-key': '--idempotency-key', 'if-match': '--if-match' };

/** A request header value with CR, LF or another control character: refused before anything is sent. */
export class InvalidHeaderError extends UsageError<string> {
  constructor(readonly header: string) {
    const flag = FLAG_FOR_HEADER[header.toLowerCase()];
    super(
      `${flag ?? `the ${header} header`} must not contain control characters (CR, LF, tab, …)`,
      flag ?? header,
    );
  }
}

/**
 * A write the service could not take (no answer, or a 5xx after the retries), as the command that
 * sent it knows it, so describe-error can say how to send it again: a one-shot create, events add
 * or attempts add can be kept in the outbox (`pin`: the flag that makes the user's command line
 * build the same body again, the observation time the command filled in); a patch names where its
 * If-Match came from, which a retry of the same command line keeps.
 */
export type UnsentWrite = { kind: 'queueable'; pin?: readonly [FlagName, string] } | { kind: 'patch'; ifMatch: 'cached' | 'flag' | 'refresh'; /** False when the read of --refresh failed: the PATCH never left. */ sent: boolean };

/** An answer from the service with a non-2xx status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The request that got this answer (path without query), set by the HTTP client. */
  request?: { method: string; path: string };
  /** Set by the command when this 5xx kept its write from being made. */
  unsent?: UnsentWrite;
  /** Which attempt (1 = the first) got this answer, set by the HTTP client. */
  attempt?: number;
  constructor(
    readonly status: number,
    /** The service's error code string when it gives one, else a code derived from the status. */
    readonly code: string,
    message: string,
    /** The parsed response body (an envelope), or undefined when it was not JSON. */
    readonly body: unknown,
    /** Seconds to wait, from Retry-After, when present. */
    readonly retryAfter?: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** No usable answer: connection refused or reset, DNS failure, timeout, malformed response. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /** The request that got no answer, set by the HTTP client (its Idempotency-Key makes a re-run safe). */
  request?: { method: string; path: string; idempotencyKey?: string };
  /** Set by the command when this failure kept its write from being made. */
  unsent?: UnsentWrite;
  constructor(
    message: string,
    readonly code: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * Not a failure: in a dry run the client recorded a request it could not answer, so a command that
 * needs the answer stops there and exits 0 (the recorder holds every request recorded so far).
 */
export class DryRunComplete extends Error {
  override readonly name = 'DryRunComplete';
  constructor() {
    super('dry run: nothing was sent');
  }
}

/** No API key for the profile: nothing was sent, the user has to log in first. */
export class NotLoggedInError extends Error {
  override readonly name = 'NotLoggedInError';
  /** The hint's plain form (no command line); describe-error renders `hintParts` where the user's command ran. */
  readonly hint: string;
  constructor(
    message: string,
    readonly hintParts: readonly HintPart[],
  ) {
    super(message);
    this.hint = renderHint(hintParts);
  }
}

/** The user interrupted (Ctrl-C), the process was told to stop (SIGTERM), or a prompt was declined. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(
    message = 'cancelled',
    /** The signal that stopped the process; decides the exit code (SIGTERM 143, else 130). */
    readonly signal?: 'SIGINT' | 'SIGTERM',
  ) {
    super(message);
  }
}

/** A check the user asked to exit on failed (`validate-address --exit-status`); the answer was printed. */
export class NotValidError extends Error {
  override readonly name = 'NotValidError';
}

/**
 * The command has already told the user what happened (e.g. a bulk run's per-line results and
 * summary, or "queued (N waiting)"); only its exit code is left to give.
 */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/** A precondition of the change no longer holds locally (e.g. a PATCH retry met 412 and the re-read differs). */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  constructor(
    message: string,
    readonly hint?: string,
    /** The parcel concerned: the hint then names `parcels get` for it, as the user's command line ran it. */
    readonly parcelId?: string,
  ) {
    super(message);
  }
}

/**
 * Checks ran and their report is already printed; at least one failed. `exitCode` is the class of
 * the most serious failure (`parcels doctor`, `parcels auth status`).
 */
export class CheckFailedError extends Error {
  override readonly name = 'CheckFailedError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The sandbox cannot run: better-sqlite3, an optional dependency, did not install or its addon does not load. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** `track --watch --fail-on-attempt` saw an attempt that did not deliver the parcel. */
export class NotDeliveredError extends Error {
  override readonly name = 'NotDeliveredError';
  constructor(message: string) {
    super(message);
  }
}

/** `--jq-exit-status`: the --jq filter's last result was false or null, or there was none; the results were printed. */
export class JqFalseError extends Error {
  override readonly name = 'JqFalseError';
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.AUTH;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status === 409 || status === 412) return EXIT.CONFLICT;
  if (status === 429) return EXIT.RATE_LIMITED;
  if (status >= 500) return EXIT.UNAVAILABLE;
  if (status >= 400) return EXIT.REJECTED;
  return EXIT.UNEXPECTED;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof ApiError) return exitCodeForStatus(error.status);
  if (error instanceof NetworkError) return EXIT.UNAVAILABLE;
  if (error instanceof NotLoggedInError) return EXIT.AUTH;
  if (error instanceof ConflictError) return EXIT.CONFLICT;
  if (error instanceof SandboxUnavailableError) return EXIT.SANDBOX_UNAVAILABLE;
  if (error instanceof NotValidError) return EXIT.NOT_VALID;
  if (error instanceof CancelledError) return error.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.CANCELLED;
  if (error instanceof CheckFailedError) return error.exitCode;
  if (error instanceof NotDeliveredError) return EXIT.NOT_DELIVERED;
  if (error instanceof JqFalseError) return EXIT.JQ_FALSE;
  return EXIT.UNEXPECTED;
}

/** The code string printed in JSON error output. */
export function errorCodeFor(error: unknown): string {
  if (error instanceof UsageError) return 'invalid_usage';
  if (error instanceof ApiError || error instanceof NetworkError) return error.code;
  if (error instanceof ConflictError) return 'conflict';
  if (error instanceof NotLoggedInError) return 'not_logged_in';
  if (error instanceof NotValidError) return 'not_valid';
  if (error instanceof SandboxUnavailableError) return 'sandbox_unavailable';
  if (error instanceof CancelledError) return 'cancelled';
  if (error instanceof CheckFailedError) return 'check_failed';
  if (error instanceof NotDeliveredError) return 'not_delivered';
  if (error instanceof JqFalseError) return 'jq_false';
  return 'unexpected';
}
