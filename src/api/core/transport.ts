import type { Dispatcher, Pool } from 'undici';
import { NetworkError } from '../../errors.js';
import { NETWORK_MESSAGES, networkCode } from '../failures.js';

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

/** undici's Pool and its request(), which Connection calls on the pool. */
export interface Undici {
  Pool: typeof Pool;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** Which entry they came from: the two internal modules, or undici's public index (the fallback). */
  source: 'internals' | 'index';
}

/**
 * undici's Pool and request modules alone (undici has no "exports" map, so they are reachable),
 * skipping fetch, WebSocket, mocks, caches and proxies: a one-shot `get --json` takes 0.69× the
 * time it takes from the public entry (bench/undici-entry.mjs, BENCHMARKS.md). The test
 * "undici's internal modules" in test/unit/core-transport.test.ts fails when a release moves them.
 */
export async function loadInternals(): Promise<Undici> {
  const [{ default: Pool }, { default: request }] = await Promise.all([import('undici/lib/dispatcher/pool.js'), import('undici/lib/api/api-request.js')]);
  return { Pool, request, source: 'internals' };
}

/** undici's public entry (CommonJS: its module.exports is the default export, bundled or not). */
export async function loadIndex(): Promise<Undici> {
  const undici = (await import('undici')).default;
  return { Pool: undici.Pool, request: undici.Dispatcher.prototype.request, source: 'index' };
}

let undici: Promise<Undici> | undefined;

/**
 * undici, once per process: its internals, or its public entry when they fail to load. Before the
 * first load V8 is switched to `--liftoff-only`: undici's HTTP parser is WebAssembly, and by
 * default V8 re-optimises it with TurboFan in background threads that a short-lived process must
 * wait for at exit (120-190 ms here; bench/client-oneshot.mjs). PARCELS_WASM_TIER_UP=1 opts out.
 */
export function loadUndici(): Promise<Undici> {
  undici ??= (async () => {
    if (process.env.PARCELS_WASM_TIER_UP !== '1') (await import('node:v8')).setFlagsFromString('--liftoff-only');
    return loadInternals().catch(() => loadIndex());
  })();
  return undici;
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
