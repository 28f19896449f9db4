import type { IncomingMessage, ServerResponse } from 'node:http';
import { KeyRing } from './auth.js';
import type { SandboxClock, TimeSources } from './clock.js';
import { createClock } from './clock.js';
import type { FaultOptions } from './faults.js';
import { Faults } from './faults.js';
import { buildHandlers } from './handlers/index.js';
import { isOpenApiRequest, serveOpenApi } from './openapi-route.js';
import type { Outcome, PipelineDeps } from './pipeline.js';
import { IDEMPOTENCY_RETENTION_S, runPipeline } from './pipeline.js';
import { RateLimiter } from './ratelimit.js';
import type { RateLimitSpec, SeedObject } from './seed.js';
import { DEFAULT_SEED, FALLBACK_RATE_LIMIT, loadSeed, validateSeed } from './seed.js';
import { withParcelCache } from './store/caching.js';
import { openSqliteRepository } from './store/sqlite.js';
import type { Repository } from './store/types.js';
import { UsageRecorder } from './usage.js';

export interface AppOptions {
  /** Seed object or path of a seed JSON file; default DEFAULT_SEED. */
  seed?: SeedObject | string;
  /** SQLite file path or ':memory:' (default). */
  db?: string;
  faults?: FaultOptions;
  /** Seconds added to the sandbox's data time. */
  clockOffset?: number;
  /** Where the clock reads data and elapsed time (default: the system's); tests drive their own. */
  time?: TimeSources;
  /** Replaces the seed's top-level rate limit; `false` turns rate limiting off entirely. */
  rateLimit?: RateLimitSpec | false;
  /** Oracle routes answer 503 oracle_unavailable. */
  oracleUnavailable?: boolean;
}

export interface App {
  /** The node:http request listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  readonly repo: Repository;
  readonly clock: SandboxClock;
  /** Flushes usage and closes the database. */
  close(): void;
}

const USAGE_RETENTION_S = 31 * 86_400;

/** Builds the sandbox's request handler (no listening): storage, seed, pipeline. */
export function createApp(opts: AppOptions = {}): App {
  const seed = typeof opts.seed === 'string' ? loadSeed(opts.seed) : validateSeed(opts.seed ?? DEFAULT_SEED);
  const clock = createClock(opts.clockOffset ?? 0, opts.time);
  const faults = new Faults(opts.faults);
  const repo = withParcelCache(openSqliteRepository(opts.db ?? ':memory:'));
  try {
    repo.applySeed(seed);
    repo.purgeIdempotencyBefore(clock.now() - IDEMPOTENCY_RETENTION_S);
    repo.purgeUsageBefore(clock.now() - USAGE_RETENTION_S);
  } catch (err) {
    repo.close();
    throw err;
  }
  const usage = new UsageRecorder(repo);
  const deps: PipelineDeps = {
    repo,
    clock,
    flushUsage: () => usage.flush(),
    oracleAvailable: opts.oracleUnavailable !== true,
    keyRing: new KeyRing(repo.loadOrganisations(), repo.loadKeys()),
    limiter: new RateLimiter(),
    faults,
    usage,
    handlers: buildHandlers(clock.now),
    rateLimit: opts.rateLimit === false ? null : (opts.rateLimit ?? seed.rate_limit ?? FALLBACK_RATE_LIMIT),
    rateLimitEnabled: opts.rateLimit !== false,
  };
  let closed = false;

  /** Writes the answer: one writeHead with a flat header list, one end with the body text. */
  function send(req: IncomingMessage, res: ServerResponse, { response, drop, rate }: Outcome, nowMs: number): void {
    if (drop) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed || res.headersSent) return;
    res.sendDate = false;
    const headers: string[] = [];
    const own = response.headers;
    for (const name in own) headers.push(name, own[name] as string);
    if (rate !== undefined) headers.push('RateLimit-Limit', String(rate.limit), 'RateLimit-Remaining', String(rate.remaining), 'RateLimit-Reset', String(rate.resetS));
    headers.push('Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(response.body)), 'Date', clock.dateHeaderAt(nowMs));
    if (response.status === 400 && own.Connection === 'close') {
      // The request body was not read to its end; close instead of draining it.
      res.shouldKeepAlive = false;
    }
    res.writeHead(response.status, headers);
    res.end(response.body);
  }

  /** Only a failure while writing can reach here; the socket is the only thing left to clean up. */
  function writeFailed(res: ServerResponse, err: unknown): void {
    if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"data":null,"error":{"code":"internal_error","message":"internal failure"}}');
    } else {
      res.destroy();
    }
  }

  /** Sends now, or after the latency fault's delay. */
  function deliver(req: IncomingMessage, res: ServerResponse, out: Outcome): void {
    const write = (nowMs: number) => {
      try {
        send(req, res, out, nowMs);
      } catch (err) {
        writeFailed(res, err);
      }
    };
    if (faults.latencyMs > 0) setTimeout(() => write(clock.nowMs()), faults.latencyMs);
    else write(out.nowMs);
  }

  return {
    repo,
    clock,
    handle(req, res) {
      if (isOpenApiRequest(req)) return serveOpenApi(req, res);
      // GET routes come back synchronously and are answered in this same tick; body routes wait
      // for their body. runPipeline never throws or rejects.
      const out = runPipeline(req, deps);
      if (out instanceof Promise) void out.then((o) => deliver(req, res, o));
      else deliver(req, res, out);
    },
    close() {
      if (closed) return;
      closed = true;
      usage.close();
      repo.close();
    },
  };
}
