import type { IncomingHttpHeaders } from 'node:http';
import type { OrgState } from '../auth.js';
import type { SandboxClock } from '../clock.js';
import type { ParcelRecord, Repository } from '../store/types.js';

/** What every handler may use; built once per sandbox. */
export interface Deps {
  repo: Repository;
  clock: SandboxClock;
  /** Writes this process's pending usage rows, so usage reads see every request it answered. */
  flushUsage(): void;
  oracleAvailable: boolean;
  /** Gives a new parcel the scenario its seed rule names, if any (inside the create transaction). */
  parcelCreated(parcel: ParcelRecord, nowMs: number): void;
}

export interface HandlerContext {
  deps: Deps;
  org: OrgState;
  /** Path parameters, already decoded and checked (`id` is a lower-case UUID). */
  params: Readonly<Record<string, string>>;
  /** Query parameters; each allowed name at most once (checked by the pipeline). */
  query: ReadonlyMap<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body of POST/PATCH routes; undefined otherwise. */
  body: unknown;
  /** Sandbox time, Unix seconds, fixed for the request. */
  now: number;
}

export interface HandlerResult {
  status: 200 | 201;
  data: unknown;
  headers?: Record<string, string>;
}

/**
 * A route's behaviour in two steps: `validate` checks the request (400/422) and returns the work to
 * do; running it produces the result (or throws 404/409/412/422 for state-dependent failures).
 */
export interface RouteHandler {
  /** Query parameter names the route accepts; any other name is a 400. */
  readonly query: readonly string[];
  validate(ctx: HandlerContext): () => HandlerResult;
}

/** Builds a RouteHandler from a typed validate/run pair. */
export function defineHandler<I>(h: {
  query?: readonly string[];
  validate: (ctx: HandlerContext) => I;
  run: (ctx: HandlerContext, input: I) => HandlerResult;
}): RouteHandler {
  return {
    query: h.query ?? [],
    validate(ctx) {
      const input = h.validate(ctx);
      return () => h.run(ctx, input);
    },
  };
}
