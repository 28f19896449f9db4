import type { IncomingMessage, ServerResponse } from 'node:http';
import { TEST_CLOCK_HEADER } from '../schemas/headers.js';
import type { SandboxClock } from './clock.js';
import type { SandboxResponse } from './envelope.js';
import type { Outcome } from './pipeline.js';
import type { RequestLog } from './requestlog.js';
import { keepBody } from './requestlog.js';

const HOUR_MS = 3_600_000;

/** The error envelope's code of an error answer, for the request log. */
function errorCode(response: SandboxResponse): string | null {
  if (response.status < 400) return null;
  try {
    return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

/** Writes answers (after the latency fault, with the drifting Date header) and logs each one. */
export class Responder {
  private readonly startElapsedMs: number;

  constructor(
    private readonly clock: SandboxClock,
    private readonly log: RequestLog,
    private readonly dateDriftSPerHour: number,
    /** How the test clock was changed (TestClock.changed), sent as the Parcels-Test-Clock header; never for the drift fault. */
    private readonly testClockChange: () => string | undefined,
    /** Wall-clock time, epoch ms (the request log's `arrived_at`). */
    private readonly wallMs: () => number,
    /** A tenant's `/t/<name>`, in front of the path a Location header names ('' for the sandbox itself). */
    private readonly basePath = '',
  ) {
    this.startElapsedMs = clock.elapsedMs();
  }

  /** The Date header: data time, plus the drift fault's share of the elapsed time. */
  private dateHeader(nowMs: number): string {
    if (this.dateDriftSPerHour === 0) return this.clock.dateHeaderAt(nowMs);
    const drift = Math.round(((this.clock.elapsedMs() - this.startElapsedMs) / HOUR_MS) * this.dateDriftSPerHour * 1000);
    return this.clock.dateHeaderAt(nowMs + drift);
  }

  /** One writeHead with a flat header list, one end with the body text. */
  private send(req: IncomingMessage, res: ServerResponse, { response, drop, rate }: Outcome, nowMs: number): void {
    if (drop) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed || res.headersSent) return;
    res.sendDate = false;
    const headers: string[] = [];
    const own = response.headers;
    for (const name in own) headers.push(name, name === 'Location' ? this.basePath + (own[name] as string) : (own[name] as string));
    if (rate !== undefined) headers.push('RateLimit-Limit', String(rate.limit), 'RateLimit-Remaining', String(rate.remaining), 'RateLimit-Reset', String(rate.resetS));
    headers.push('Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(response.body)), 'Date', this.dateHeader(nowMs));
    const change = this.testClockChange();
    if (change !== undefined) headers.push(TEST_CLOCK_HEADER, change);
    if (response.status === 400 && own.Connection === 'close') {
      // The request body was not read to its end; close instead of draining it.
      res.shouldKeepAlive = false;
    }
    res.writeHead(response.status, headers);
    res.end(response.body);
  }

  /** Only a failure while writing can reach here; the socket is the only thing left to clean up. */
  private writeFailed(res: ServerResponse, err: unknown): void {
    if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"data":null,"error":{"code":"internal_error","message":"internal failure"}}');
    } else {
      res.destroy();
    }
  }

  private record(out: Outcome, startedMs: number): void {
    const { request, response } = out;
    const elapsedMs = this.clock.elapsedMs();
    this.log.add({
      atMs: out.nowMs,
      arrivedWallMs: this.wallMs() - (elapsedMs - startedMs),
      method: request.method,
      path: request.path,
      query: request.query,
      rawHeaders: request.rawHeaders,
      route: request.route,
      org: request.org,
      authorization: request.authorized ? 'Bearer [redacted]' : null,
      status: out.drop ? null : response.status,
      code: errorCode(response),
      replay: response.headers['Idempotent-Replayed'] === 'true',
      latency_ms: Math.round((elapsedMs - startedMs) * 100) / 100,
      fault: out.fault,
      requestBody: keepBody(request.body),
      responseBody: out.drop ? undefined : keepBody(response.body),
    });
  }

  /** Sends now, or after the latency fault's delay, and logs the answer. */
  deliver(req: IncomingMessage, res: ServerResponse, out: Outcome, startedMs: number): void {
    const write = (nowMs: number) => {
      try {
        this.send(req, res, out, nowMs);
      } catch (err) {
        this.writeFailed(res, err);
      }
      this.record(out, startedMs);
    };
    if (out.latencyMs <= 0) {
      write(out.nowMs);
      return;
    }
    // A socket waiting out the latency is silent, not idle: its idle timeout (server.ts) is stretched
    // past the wait, and back once the wait is over. The latency is bounded (FAULT_LIMITS.latencyMs).
    const socket = req.socket;
    const idleMs = socket.timeout ?? 0;
    if (idleMs > 0 && out.latencyMs >= idleMs) socket.setTimeout(out.latencyMs + idleMs);
    // Unreferenced: a closed sandbox's pending delay keeps no process alive.
    setTimeout(() => {
      if (idleMs > 0 && out.latencyMs >= idleMs) socket.setTimeout(idleMs);
      write(this.clock.nowMs());
    }, out.latencyMs).unref();
  }

  /** An answer of the sandbox's own routes (admin, health): no latency, not logged. */
  answerOwn(req: IncomingMessage, res: ServerResponse, response: SandboxResponse): void {
    const out: Outcome = { response, drop: false, fault: null, latencyMs: 0, rate: undefined, nowMs: this.clock.nowMs(), request: { method: '', path: '', query: '', route: null, org: null, authorized: false, rawHeaders: [], body: undefined } };
    try {
      this.send(req, res, out, out.nowMs);
    } catch (err) {
      this.writeFailed(res, err);
    }
  }
}
