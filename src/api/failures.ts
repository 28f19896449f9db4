import type * as NodeHttp from 'node:http';
import { createRequire } from 'node:module';
import { isRecord } from '../schemas/record.js';
import { NetworkError } from '../errors.js';
import type { ApiError } from '../errors.js';

/** What went wrong, in words: error bodies from the service and transport failures. */

const CODES_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 412: 'precondition_failed',
  422: 'validation_failed', 429: 'rate_limited', 500: 'internal_error', 503: 'unavailable',
};

let phrases: Readonly<Record<number, string | undefined>> | undefined;

/** The reason phrase from node:http's STATUS_CODES, loaded on first use (undici loads node:http anyway). */
export function statusPhrase(status: number): string {
  phrases ??= (createRequire(import.meta.url)('node:http') as typeof NodeHttp).STATUS_CODES;
  return phrases[status] ?? `HTTP ${status}`;
}

/** The error code used when the body gives none. */
export function codeForStatus(status: number): string {
  return CODES_BY_STATUS[status] ?? `http_${status}`;
}

/** Error code and message from any plausible error body; falls back to the status. */
export function errorDetails(status: number, body: unknown): { code: string; message: string } {
  let code: string | undefined;
  let message: string | undefined;
  if (isRecord(body)) {
    const error = body.error;
    if (isRecord(error)) {
      if (typeof error.code === 'string' && error.code !== '') code = error.code;
      if (typeof error.message === 'string' && error.message !== '') message = error.message;
    } else if (typeof error === 'string' && error !== '') {
      // A bare string is a code when it reads like one ("stale_etag"), else it is the message.
      if (/^[\w.:-]+$/.test(error)) code = error;
      else message = error;
    }
    if (code === undefined && typeof body.code === 'string' && body.code !== '') code = body.code;
    if (message === undefined) {
      for (const key of ['message', 'detail', 'title']) {
        const value = body[key];
        if (typeof value === 'string' && value !== '') {
          message = value;
          break;
        }
      }
    }
  }
  // With no message from the service, its own code still says more than the status phrase alone.
  return { code: code ?? codeForStatus(status), message: message ?? (code ? `${statusPhrase(status)} (${code})` : statusPhrase(status)) };
}

/** A NetworkError code for a transport failure, from the error's code or its causes' codes. */
export function networkCode(error: unknown): string {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    if (typeof current.code === 'string') codes.push(current.code);
    current = current.cause;
  }
  for (const code of codes) {
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection_refused';
      case 'ECONNRESET':
      case 'EPIPE':
      case 'ECONNABORTED':
      case 'UND_ERR_SOCKET':
      case 'UND_ERR_CLOSED':
        return 'connection_reset';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
      case 'EAI_NONAME':
        return 'dns_failure';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return 'timeout';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
      case 'ENETDOWN':
        return 'host_unreachable';
      default:
        if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO') return 'bad_response';
        if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'tls_error';
    }
  }
  return 'network_error';
}

/** A failure the retry policy retries, in a few words for a notice: `rate limited`, `503 Service Unavailable from the service`, `connection refused`. */
export function retriedFailureText(failure: ApiError | NetworkError): string {
  if (failure instanceof NetworkError) return NETWORK_MESSAGES[failure.code] ?? failure.code;
  return failure.status === 429 ? 'rate limited' : `${failure.status} ${statusPhrase(failure.status)} from the service`;
}

export const NETWORK_MESSAGES: Readonly<Record<string, string>> = {
  connection_refused: 'connection refused',
  connection_reset: 'connection closed by the service before a complete answer',
  dns_failure: 'host name not found',
  timeout: 'no complete answer within the timeout',
  host_unreachable: 'host unreachable',
  tls_error: 'TLS handshake failed',
  bad_response: 'malformed HTTP response',
  network_error: 'network error',
};
