// Types for the two undici internals the client loads directly (undici has no "exports" map, so
// these subpaths are reachable). Loading them instead of undici's index skips fetch, WebSocket,
// the mock agents, caches and proxies: about a third of undici's start-up cost.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export = PoolClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
