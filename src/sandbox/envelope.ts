import type { SandboxError } from './errors.js';

/** A complete answer: status, headers and the exact body text. Stored as-is for idempotent replays. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Envelope texts of frozen (immutable) data, so a cached record is serialised once. */
const serialised = new WeakMap<object, string>();

export function dataBody(data: unknown): string {
  if (typeof data !== 'object' || data === null) return `{"data":${JSON.stringify(data)}}`;
  // Only frozen data is ever stored, so a hit needs no second look (Object.isFrozen is a runtime call).
  const known = serialised.get(data);
  if (known !== undefined) return known;
  const text = `{"data":${JSON.stringify(data)}}`;
  if (Object.isFrozen(data)) serialised.set(data, text);
  return text;
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
