import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { HttpMethod } from '../api/http.js';
import { isReservedHeader } from '../api/request.js';
import { readAll } from '../io/streams.js';
import type { CommandFlag } from '../schemas/flag-name.js';
import type { apiCommands } from '../definitions/api.js';

/**
 * The parts of a raw `parcels api` request as the user types them: method, path, fields, query
 * parameters and headers, each checked before anything is sent (exit 2 naming the flag).
 */

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Methods whose fields go to the query string (they carry no body). */
export const QUERY_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function methodArg(value: string): HttpMethod {
  const method = value.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')} (got "${value}")`, 'METHOD');
  return method;
}

/**
 * A route on the profile's service: `/deliveries/v1/parcels` (the leading slash may be left out),
 * with an optional `?k=v` query. A URL or `//host` is refused: the key goes only to the profile's host.
 */
export function pathArg(value: string): { path: string; query: [string, string][] } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//')) {
    throw new UsageError(
      `PATH must be a path on the profile's service such as /deliveries/v1/parcels, not a URL (got "${value}")`,
      'PATH',
      "the API key is only ever sent to the profile's base URL; use --base-url or --profile to talk to another service",
    );
  }
  if (/[\s#]/.test(value) || CONTROL_CHARACTERS.test(value)) {
    throw new UsageError(`PATH must not contain spaces, control characters or a #fragment (got "${value}")`, 'PATH');
  }
  const [rawPath = '', rawQuery] = splitOnce(value, '?');
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  if (path.startsWith('//')) throw new UsageError(`PATH must not start with // (got "${value}")`, 'PATH');
  const query = rawQuery === undefined ? [] : [...new URLSearchParams(rawQuery)];
  return { path, query };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const i = text.indexOf(separator);
  return i === -1 ? [text, undefined] : [text.slice(0, i), text.slice(i + separator.length)];
}

/** The flags of `parcels api`, which its errors name. */
type ApiFlag = CommandFlag<typeof apiCommands.api>;

function keyValue(entry: string, flag: ApiFlag): [string, string] {
  const [key, value] = splitOnce(entry, '=');
  if (value === undefined || key.trim() === '') throw new UsageError(`${flag} must be key=value (got "${entry}")`, flag);
  return [key.trim(), value];
}

async function fileOrStdin(spec: string, ctx: Context, flag: ApiFlag): Promise<string> {
  if (spec === '-') return readAll(ctx.io.stdin);
  try {
    return await readFile(spec, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} could not read ${spec}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, flag);
  }
}

/** gh's `-F` typing: true, false, null and integers become JSON values; `@file` (or `@-`) its text; the rest a string. */
async function typedValue(value: string, ctx: Context, flag: ApiFlag): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  if (value.startsWith('@')) return fileOrStdin(value.slice(1), ctx, flag);
  return value;
}

/** `--field` (typed) and `--raw-field` (strings) in the order given; a later key replaces an earlier one. */
export async function fieldsFlags(typed: readonly string[], raw: readonly string[], ctx: Context): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for (const entry of typed) {
    const [key, value] = keyValue(entry, '--field');
    fields[key] = await typedValue(value, ctx, '--field');
  }
  for (const entry of raw) {
    const [key, value] = keyValue(entry, '--raw-field');
    fields[key] = value;
  }
  return fields;
}

export function queryFlags(entries: readonly string[]): [string, string][] {
  return entries.map((entry) => keyValue(entry, '--query'));
}

/**
 * `--header Name: value`. Authorization and the transport's own headers are refused (the key is
 * the client's to send), and so are control characters. Idempotency-Key and If-Match are handed
 * back on their own, so the request carries each once.
 */
export function headerFlags(entries: readonly string[]): { headers: Record<string, string>; idempotencyKey?: string; ifMatch?: string } {
  const headers: Record<string, string> = {};
  let idempotencyKey: string | undefined;
  let ifMatch: string | undefined;
  for (const entry of entries) {
    const [rawName, rawValue] = splitOnce(entry, ':');
    const name = rawName.trim();
    if (rawValue === undefined || !HEADER_NAME.test(name)) {
      throw new UsageError(`--header must be name:value with a valid header name (got "${entry}")`, '--header');
    }
    const value = rawValue.trim();
    if (CONTROL_CHARACTERS.test(value)) throw new UsageError(`--header ${name} must not contain control characters (CR, LF, tab, …)`, '--header');
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      throw new UsageError('--header cannot set Authorization: parcels sends the profile\'s key itself, and only to its base URL', '--header');
    }
    if (isReservedHeader(lower)) throw new UsageError(`--header cannot set ${name}: the HTTP client sets it`, '--header');
    if (lower === 'idempotency-key') idempotencyKey = value;
    else if (lower === 'if-match') ifMatch = value;
    else headers[canonicalName(name)] = value;
  }
  return { headers, ...(idempotencyKey === undefined ? {} : { idempotencyKey }), ...(ifMatch === undefined ? {} : { ifMatch }) };
}

/** `content-type` → `Content-Type`, so a header the client also sets is replaced, not doubled. */
function canonicalName(name: string): string {
  return name
    .split('-')
    .map((part) => (part === '' ? part : part[0]?.toUpperCase() + part.slice(1).toLowerCase()))
    .join('-');
}
