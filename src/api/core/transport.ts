import type { Pool } from 'undici';
import { NetworkError } from '../../errors.js';
import { NETWORK_MESSAGES, networkCode } from '../failures.js';
import { loadUndici } from './undici-entry.js';

export { loadUndici } from './undici-entry.js';

/**
 * Under the request chain's exchange (exchange.ts): undici's pool, the URL guard, the response-size
 * cap, how a header value and a transport failure read.
 */

/** Largest single response body accepted; list walks are page by page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Where requests go: origin and base path of an http(s) base URL without credentials. */
export interface Service {
  origin: string;
  /** The base URL's path, without its trailing slash, in front of every route. */
  basePath: string;
}

/** settings.ts reports bad base URLs to the user; this only keeps the key from other schemes and from credentials in URLs. */
export function serviceOf(baseUrl: string): Service {
  const url = new URL(baseUrl);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw new Error('the request core needs an http(s) base URL without credentials');
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

export interface PoolOptions {
  origin: string;
  connections: number;
  /** Connect, headers and body, each. */
  timeoutMs: number;
}

/**
 * The pool's connections for at most `inFlight` requests at once (a bulk run's `--concurrency`: its
 * gate keeps that many in flight, never more). After an answer undici rests a keep-alive connection
 * for a turn of the event loop before it takes the next request (it checks the server did not close
 * it meanwhile); with exactly `inFlight` connections the next line then waits in the pool's queue for
 * that turn after every answer, ~1 ms a line at 32 in flight. A quarter more connections let it go
 * at once on one that has rested (BENCHMARKS.md, "Latency: the whole command").
 */
export function connectionsFor(inFlight: number): number {
  return inFlight + Math.ceil(inFlight / 4);
}

/** A keep-alive pool to the service (undici is loaded on first use: importing this module costs nothing). */
export async function openPool(options: PoolOptions): Promise<Pool> {
  const { Pool } = await loadUndici();
  const timeout = options.timeoutMs;
  return new Pool(options.origin, { connections: options.connections, connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });
}

/** A header value as one string: repeated headers joined with ", ". */
export function headerText(value: string | string[]): string {
  return Array.isArray(value) ? value.join(', ') : value;
}

export function responseTooLarge(limit: number): NetworkError {
  return new NetworkError(`the response is larger than ${limit} bytes; stopped reading it`, 'response_too_large', 'ask for less (e.g. a smaller --limit)');
}

export function timedOut(timeoutMs: number): NetworkError {
  return new NetworkError(`${NETWORK_MESSAGES.timeout} (${timeoutMs} ms)`, 'timeout');
}

/** A transport failure in words, its detail passed through `redact` (it may quote what the server sent). */
export function transportFailure(error: unknown, redact: (text: string) => string): NetworkError {
  const code = networkCode(error);
  const detail = error instanceof Error && error.message ? error.message : String(error);
  return new NetworkError(`${NETWORK_MESSAGES[code] ?? 'network error'}: ${redact(detail)}`, code);
}
