import type { FieldIssue } from '../schemas/validate.js';

/** The error statuses of spec section 7; the sandbox answers with no others. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 422 | 429 | 500 | 503;

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * A file the sandbox was given (seed, scenarios) that cannot be used: `heading` names the file, each
 * problem where in it (`field`) and the rule it breaks. The message lists them all, a line each.
 */
export class FileProblemsError extends Error {
  constructor(
    readonly heading: string,
    readonly problems: readonly ErrorDetail[] = [],
  ) {
    super(problems.length === 0 ? heading : `${heading}:\n${problems.map((p) => `  ${p.field}: ${p.message}`).join('\n')}`);
  }
}

/** A failure that becomes an error envelope: `{"data": null, "error": {code, message, field?, details?}}`. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly status: ErrorStatus,
    /** Stable snake_case code. */
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. WWW-Authenticate or Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422 for schema failures: `field` is the first offending path, `details` lists every issue. */
export function validationError(issues: readonly FieldIssue[]): SandboxError {
  const first = issues[0] ?? { path: '', message: 'is invalid' };
  const details = issues.map((i) => ({ field: i.path, message: i.message }));
  const subject = first.path === '' ? 'request body' : first.path;
  return new SandboxError(422, 'validation_failed', `${subject} ${first.message}`, first.path || undefined, details);
}

/** 400 for a request that cannot be parsed (bad JSON, content type, header or query syntax, path id). */
export function badRequest(code: string, message: string, field?: string): SandboxError {
  return new SandboxError(400, code, message, field);
}

/** An admin token that cannot be used: one the seed (or the database) knows as a customer key. */
export class AdminTokenError extends Error {
  override readonly name = 'AdminTokenError';
}
