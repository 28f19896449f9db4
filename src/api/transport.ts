import type { Dispatcher, Pool } from 'undici';

/**
 * Loading undici, the HTTP transport. Importing this module costs nothing; the first request pays.
 */

export interface Transport {
  Pool: typeof Pool;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** Which entry it came from: the two internal modules (fast) or undici's public index (fallback). */
  source: 'internals' | 'index';
}

export type TransportLoader = () => Promise<Transport>;

/** undici's Pool and request modules alone: about a third of its index's load cost. */
export const loadInternals: TransportLoader = async () => {
  const [{ default: Pool }, { default: request }] = await Promise.all([import('undici/lib/dispatcher/pool.js'), import('undici/lib/api/api-request.js')]);
  return { Pool, request, source: 'internals' };
};

/** undici's public entry, for when a release moves its internal files. */
export const loadIndex: TransportLoader = async () => {
  // CommonJS: read through its default export (module.exports); the bundle gives a CommonJS chunk no named exports.
  const { default: undici } = await import('undici');
  return {
    Pool: undici.Pool,
    request(this: Dispatcher, options: Dispatcher.RequestOptions) {
      return this.request(options);
    },
    source: 'index',
  };
};

/** The internals, or the public entry when they fail to load. */
export async function loadWithFallback(primary: TransportLoader, fallback: TransportLoader): Promise<Transport> {
  try {
    return await primary();
  } catch {
    return fallback();
  }
}

let transport: Promise<Transport> | undefined;

/**
 * Loads undici once per process. Before the first load V8 is switched to `--liftoff-only`: undici's
 * HTTP parser is WebAssembly, and by default V8 re-optimises it with TurboFan in background threads
 * that a short-lived process must wait for at exit (120-190 ms here). The baseline (Liftoff) code
 * is plenty fast for a CLI. Measured in bench/client-oneshot.mjs; PARCELS_WASM_TIER_UP=1 opts out.
 */
export function loadTransport(): Promise<Transport> {
  transport ??= (async () => {
    if (process.env.PARCELS_WASM_TIER_UP !== '1') {
      const v8 = await import('node:v8');
      v8.setFlagsFromString('--liftoff-only');
    }
    return loadWithFallback(loadInternals, loadIndex);
  })();
  return transport;
}
