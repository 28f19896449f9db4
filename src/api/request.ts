import { InvalidHeaderError, UsageError } from '../errors.js';
import { REDACTED } from './redact.js';

/** What a request is, and the exact target, headers and body bytes it goes out with. */

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

export interface ApiRequest {
  method: HttpMethod;
  /** Route path starting with "/", e.g. /deliveries/v1/parcels. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised once; a Uint8Array is sent as is (exact bytes). */
  body?: unknown;
  idempotencyKey?: string | undefined;
  ifMatch?: string | undefined;
  /** More headers (e.g. from a raw `api` command); they cannot replace Authorization or Host. */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** Extra attempts for this request instead of the client's (a `track --watch` poll: 0, its own pause follows); it is then outside the client's outage stop. */
  retries?: number;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", "; the key redacted from every value. */
  headers: Record<string, string>;
  etag?: string;
  /** The parsed envelope (undefined for an empty body). */
  body: unknown;
  /** `body.data`. */
  data: unknown;
  /** How many attempts it took (1 = first try). */
  attempts: number;
}

/**
 * Headers a request may not set itself: the key goes only where the client sends it, and the
 * connection is the transport's (undici refuses Expect, Upgrade and Keep-Alive on a request: sent
 * anyway they fail as a network error, retried).
 */
const RESERVED_HEADERS = new Set(['authorization', 'host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade', 'keep-alive']);

/** True for a header (lower-case name) a request may not set itself. */
export function isReservedHeader(name: string): boolean {
  return RESERVED_HEADERS.has(name);
}
// Any C0 control (CR and LF included) or DEL: they would split or corrupt the header block.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Path (with the base path prefix) and query string, as sent on the request line. */
export function requestTarget(basePath: string, req: Pick<ApiRequest, 'path' | 'query'>): string {
  if (!req.path.startsWith('/') || req.path.startsWith('//') || /[\s#?]/.test(req.path)) {
    // Guards the rule that the key only goes to the configured service: no absolute or
    // protocol-relative URLs, no smuggled query strings.
    throw new UsageError(`invalid request path "${req.path}"`);
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value === undefined) continue;
    params.append(name, String(value));
  }
  const query = params.toString();
  return `${basePath}${req.path}${query ? `?${query}` : ''}`;
}

export function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function checkedValue(name: string, value: string): string {
  if (CONTROL_CHARACTERS.test(value)) throw new InvalidHeaderError(name);
  return value;
}

/**
 * The flat header list a request goes out with: the client's `base` (built once: Accept,
 * Authorization, Content-Type with a body, User-Agent) and the request's own, checked. Extra
 * headers (the `api` command's) go through `requestHeaders`, which lets them replace the base ones.
 */
export function wireHeaders(
  base: { body: readonly string[]; none: readonly string[] },
  req: ApiRequest,
  hasBody: boolean,
  auth: { apiKey: string | undefined; userAgent: string },
): string[] {
  if (req.headers !== undefined && Object.keys(req.headers).length > 0) return Object.entries(requestHeaders(req, hasBody, { ...auth, redact: false })).flat();
  const headers = [...(hasBody ? base.body : base.none)];
  if (req.idempotencyKey !== undefined) headers.push('Idempotency-Key', checkedValue('Idempotency-Key', req.idempotencyKey));
  if (req.ifMatch !== undefined) headers.push('If-Match', checkedValue('If-Match', req.ifMatch));
  return headers;
}

/**
 * Request headers in canonical case, values checked before anything is sent. `apiKey` undefined
 * leaves Authorization out; `redact` shows it as a fixed-width mask.
 */
export function requestHeaders(
  req: ApiRequest,
  hasBody: boolean,
  auth: { apiKey: string | undefined; redact: boolean; userAgent: string },
): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (auth.apiKey) headers.Authorization = `Bearer ${auth.redact ? REDACTED : auth.apiKey}`;
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (req.idempotencyKey !== undefined) headers['Idempotency-Key'] = checkedValue('Idempotency-Key', req.idempotencyKey);
  if (req.ifMatch !== undefined) headers['If-Match'] = checkedValue('If-Match', req.ifMatch);
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (RESERVED_HEADERS.has(name.toLowerCase()) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`the header "${name}" cannot be set on a request`, name);
    }
    headers[name] = checkedValue(name, value);
  }
  headers['User-Agent'] = auth.userAgent;
  return headers;
}
