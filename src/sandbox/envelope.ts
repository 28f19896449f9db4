import type { SandboxError } from './errors.js';

/** A complete answer: status, headers and the exact body text. Stored as-is for idempotent replays. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function dataBody(data: unknown): string {
  return `{"data":${JSON.stringify(data)}}`;
}

export function errorBody(err: SandboxError): string {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.field !== undefined) error.field = err.field;
  if (err.details !== undefined && err.details.length > 0) error.details = err.details;
  return JSON.stringify({ data: null, error });
}

export function errorResponse(err: SandboxError): SandboxResponse {
  return { status: err.status, headers: { ...err.headers }, body: errorBody(err) };
}
