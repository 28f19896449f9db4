import type { Dispatcher, Pool } from 'undici';

/**
 * Which undici the request core uses. The fast path loads its Pool and request() modules alone
 * (undici has no "exports" map, so they are reachable), skipping fetch, WebSocket, mocks, caches and
 * proxies: a one-shot `get --json` takes about 0.7× the time it takes from the public entry
 * (bench/undici-entry.mjs, BENCHMARKS.md). Those files are not undici's promise, so they are used
 * only when they load and have the shape the core calls; otherwise the public entry serves. The
 * test "undici's internal modules" (test/unit/undici-entry.test.ts) fails, naming what changed,
 * when an undici release moves or reshapes them.
 */

/** undici's Pool and its request(), which the core calls on the pool. */
export interface Undici {
  Pool: typeof Pool;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** Which entry they came from: the two internal modules, or undici's public index (the fallback). */
  source: 'internals' | 'index';
}

export const INTERNAL_POOL = 'undici/lib/dispatcher/pool.js';
export const INTERNAL_REQUEST = 'undici/lib/api/api-request.js';

/** The methods the core and its pool owners call on a Pool. */
const POOL_METHODS = ['dispatch', 'close', 'destroy'] as const;

/** The internals, or what is wrong with them in words, each naming its module. */
export type Internals = { undici: Undici } | { problems: string[] };

/** What keeps two modules' default exports from being undici's Pool and request() (empty: nothing). */
export function internalsProblems(pool: unknown, request: unknown): string[] {
  const problems: string[] = [];
  if (typeof pool !== 'function') problems.push(`${INTERNAL_POOL}'s default export is of type ${typeof pool}, not the Pool class`);
  else {
    const prototype: unknown = pool.prototype;
    for (const method of POOL_METHODS) {
      if (typeof prototype !== 'object' || prototype === null || typeof Reflect.get(prototype, method) !== 'function') {
        problems.push(`${INTERNAL_POOL}'s Pool has no ${method}() method`);
      }
    }
  }
  if (typeof request !== 'function') problems.push(`${INTERNAL_REQUEST}'s default export is of type ${typeof request}, not request()`);
  return problems;
}

/** The two internal modules, checked (the import paths stay literal so the bundler inlines them). */
export async function loadInternals(): Promise<Internals> {
  let pool: unknown;
  let request: unknown;
  try {
    // A CommonJS module's namespace read through `default` only (test/unit/commonjs-imports.test.ts).
    const [{ default: poolExport }, { default: requestExport }] = await Promise.all([import('undici/lib/dispatcher/pool.js'), import('undici/lib/api/api-request.js')]);
    pool = poolExport;
    request = requestExport;
  } catch (error) {
    // Node's message names the module it could not find or load.
    return { problems: [`the internal modules do not load: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const problems = internalsProblems(pool, request);
  if (problems.length > 0) return { problems };
  // Checked above as far as JavaScript can tell: a class with the pool's methods, and a function.
  return { undici: { Pool: pool as typeof Pool, request: request as Undici['request'], source: 'internals' } };
}

/** undici's public entry (CommonJS: its module.exports is the default export, bundled or not). */
export async function loadIndex(): Promise<Undici> {
  const undici = (await import('undici')).default;
  return { Pool: undici.Pool, request: undici.Dispatcher.prototype.request, source: 'index' };
}

let undici: Promise<Undici> | undefined;

/**
 * undici, once per process: its internals, or its public entry when they do not load or changed
 * shape. Before the first load V8 is switched to `--liftoff-only`: undici's HTTP parser is
 * WebAssembly, and by default V8 re-optimises it with TurboFan in background threads that a
 * short-lived process must wait for at exit (120-190 ms here; bench/client-oneshot.mjs).
 * PARCELS_WASM_TIER_UP=1 opts out.
 */
export function loadUndici(): Promise<Undici> {
  undici ??= (async () => {
    if (process.env.PARCELS_WASM_TIER_UP !== '1') (await import('node:v8')).setFlagsFromString('--liftoff-only');
    const internals = await loadInternals();
    return 'undici' in internals ? internals.undici : loadIndex();
  })();
  return undici;
}
