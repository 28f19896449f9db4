import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { App } from './app.js';
import { errorBody } from './envelope.js';
import { SandboxError } from './errors.js';
import type { HostGuard } from './host-guard.js';
import { hostGuard } from './host-guard.js';
import { serveOpenApi } from './openapi-route.js';
import { ownRoute } from './routes.js';
import { tenantPath } from './tenants.js';
import { TENANT_PREFIX } from '../schemas/sandbox-admin.js';

/** Timeouts and limits of the listener, as a production server sets them. All in milliseconds. */
export interface ServerLimits {
  /** Time allowed to receive a request's headers (default 20 000). */
  headersTimeoutMs?: number;
  /** Time allowed to receive a whole request, body included (default 30 000; at least headersTimeoutMs). */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept after an answer (default 5 000). */
  keepAliveTimeoutMs?: number;
  /** A socket with no traffic for this long is closed (default 60 000). */
  idleTimeoutMs?: number;
  /** Open connections at most; further ones are closed as they arrive (default 1 024). */
  maxConnections?: number;
}

export const DEFAULT_LIMITS: Required<ServerLimits> = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 1024,
};

/** The listen address is taken. Said in the library's words (its `port` option); the CLI says it with its flag. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use; choose another port (port: 0 picks a free one)`);
  }
}

export interface Listening {
  server: Server;
  /** e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/** What Node's parser rejected, as a 400 envelope (Node's own answer would be a bare 400/431/408). */
function clientErrorEnvelope(err: NodeJS.ErrnoException): string {
  const code = err.code ?? '';
  const parts: Record<string, [string, string]> = {
    HPE_HEADER_OVERFLOW: ['headers_too_large', 'the request headers are too large'],
    ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'the request was not received in time'],
    HPE_UNEXPECTED_CONTENT_LENGTH: ['malformed_request', 'Content-Length and Transfer-Encoding must not both be sent'],
    HPE_INVALID_CONTENT_LENGTH: ['malformed_request', 'the Content-Length header is not valid'],
    HPE_INVALID_CHUNK_SIZE: ['malformed_request', 'a chunk size of the chunked body is not valid'],
  };
  const [errorCode, message] = parts[code] ?? ['malformed_request', 'the request is not valid HTTP/1.1'];
  const body = errorBody(new SandboxError(400, errorCode, message));
  return `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or a socket already answering cannot take an answer; it can only be closed.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorEnvelope(err));
}

/** A Host header the listener does not answer for (host-guard.ts): 403, saying how to allow it. */
function hostRefused(res: ServerResponse, host: string | undefined): void {
  const name = JSON.stringify(host ?? '');
  const body = errorBody(new SandboxError(403, 'host_not_allowed', `this sandbox listens on a loopback address and answers only for loopback names and its own address, not Host ${name}; start it with --allowed-hosts NAME to allow another name`));
  res.writeHead(403, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  res.end(body);
}

/** A path under `/t/<name>` of a tenant this sandbox does not hold (or, inside a tenant, any `/t/…`: tenants hold none). */
function tenantNotFound(res: ServerResponse, name: string): void {
  const body = errorBody(new SandboxError(404, 'tenant_not_found', `no tenant named ${JSON.stringify(name)} on this sandbox; create it with POST /_sandbox/v1/tenants`));
  res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/**
 * Listens on host:port (port 0 picks a free port) and serves the app, answering only for the Host
 * headers host-guard.ts allows (with `allowedHosts` besides) and describing the API at the bound
 * address (never the Host header's).
 */
export function listen(app: App, host = '127.0.0.1', port = 0, limits: ServerLimits = {}, allowedHosts: readonly string[] = []): Promise<Listening> {
  const given = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
  const l: Required<ServerLimits> = { ...DEFAULT_LIMITS, ...given };
  const requestTimeout = Math.max(l.requestTimeoutMs, l.headersTimeoutMs);
  // Set once listening: the bound port is known only then.
  let guard: HostGuard | undefined;
  let url = '';
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (guard !== undefined && !guard.allows(req.headers.host)) {
      hostRefused(res, req.headers.host);
      return;
    }
    let route = ownRoute(req);
    let served = app;
    let base = url;
    const at = route === 'tenant' ? tenantPath(req.url ?? '') : undefined;
    if (at !== undefined) {
      const tenant = app.tenants?.enter(req, at);
      if (tenant === undefined) {
        tenantNotFound(res, at.name);
        return;
      }
      served = tenant;
      base = `${url}${TENANT_PREFIX}${at.name}`;
      route = ownRoute(req);
    }
    if (route === 'openapi') serveOpenApi(res, base);
    else served.handle(req, res, route);
  };
  const server = createServer(
    {
      headersTimeout: l.headersTimeoutMs,
      requestTimeout,
      // The Keep-Alive header tells clients how long an idle connection may be reused: never longer
      // than the idle timeout that destroys it (a client reusing it then would meet a closed socket).
      keepAliveTimeout: Math.min(l.keepAliveTimeoutMs, l.idleTimeoutMs),
      // Node checks the two timeouts above on this interval; short timeouts need a short interval.
      connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(l.headersTimeoutMs / 4))),
    },
    handle,
  );
  server.maxConnections = l.maxConnections;
  server.setTimeout(l.idleTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', onClientError);
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, host) : err);
    });
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      const addr = server.address() as AddressInfo;
      const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      url = `http://${h}:${addr.port}`;
      guard = hostGuard(addr.address, addr.port, allowedHosts);
      resolve({
        server,
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
