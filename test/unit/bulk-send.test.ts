/**
 * The bulk sender (ApiClient's `send`, src/api/http.ts; here one attempt) against a local HTTP server of the test's own: what it
 * sends, what it keeps from each kind of answer, the key redacted from all of it, timeouts on an
 * injected clock, cancellation, and one pool however many sends start at once.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PoolGate } from '../../src/api/core/gate.js';
import { ApiClient } from '../../src/api/http.js';
import { GaveUp } from '../../src/api/core/retry.js';
import type { LineRun } from '../../src/api/core/send.js';
import { sleep } from '../../src/api/core/sleep.js';
import type { SendRequest, SendResponse } from '../../src/bulk/types.js';
import { ApiError, CancelledError, NetworkError } from '../../src/errors.js';

const KEY = 'bulk_test_key_7c1e9a4f2b8d6e3a';
const UUID = '0b0c4e1a-2f3d-4c5b-8a9e-1f2e3d4c5b6a';
type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler;
const sockets = new Set<Socket>();
const senders: ApiClient[] = [];

beforeEach(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, body, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`;
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.close()));
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function sender(opts: { now?: () => number; timeoutMs?: number; connections?: number } = {}): ApiClient {
  const made = new ApiClient({ baseUrl: url, apiKey: KEY, userAgent: 'parcels-test/1', timeoutMs: opts.timeoutMs ?? 5_000, retries: 0, connections: opts.connections ?? 4, now: opts.now, gate: new PoolGate() });
  senders.push(made);
  return made;
}

/** One attempt, no gate: what a line's attempt keeps, its failure unwrapped from the retry piece's GaveUp. */
async function once(s: ApiClient, req: SendRequest, abandon?: AbortSignal): Promise<SendResponse> {
  const run: LineRun = { counting: { retries: 0, pausesCount: true, repeatable: true }, retry: { gate: undefined, wait: undefined, sleep, random: Math.random }, abandon };
  try {
    return await s.send(req, run);
  } catch (error) {
    throw error instanceof GaveUp ? error.failure : error;
  }
}

const request = (n: number): SendRequest => ({ method: 'POST', path: '/deliveries/v1/parcels', body: Buffer.from(`{"n":${n}}`), idempotencyKey: `bulk-key-${n}-abcdefgh` });

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe('bulk sender', () => {
  it('sends the exact bytes with the key, the Idempotency-Key and JSON headers under the base path; keeps the status and the entry id', async () => {
    const seen: Array<Record<string, unknown>> = [];
    handler = (req, body, res) => {
      seen.push({ method: req.method, url: req.url, body, auth: req.headers.authorization, key: req.headers['idempotency-key'], type: req.headers['content-type'], accept: req.headers.accept, agent: req.headers['user-agent'] });
      answer(res, 201, { data: { entry_id: UUID, status: 0 } });
    };
    expect(await once(sender(), request(1))).toEqual({ status: 201, entryId: UUID, replayed: false });
    expect(seen).toEqual([
      { method: 'POST', url: '/base/deliveries/v1/parcels', body: '{"n":1}', auth: `Bearer ${KEY}`, key: 'bulk-key-1-abcdefgh', type: 'application/json', accept: 'application/json', agent: 'parcels-test/1' },
    ]);
  });

  it('an answer without an entry id has none; a 2xx that is not JSON is a bad response', async () => {
    handler = (_req, body, res) => (body === '{"n":1}' ? answer(res, 200, { data: {} }) : res.writeHead(201).end('<html>'));
    const s = sender();
    expect(await once(s, request(1))).toEqual({ status: 200, entryId: undefined, replayed: false });
    await expect(once(s, request(2))).rejects.toThrow(new NetworkError('the service answered 201 with a body that is not JSON', 'bad_response'));
  });

  it('the key never survives in what it keeps: an entry id, an error message', async () => {
    handler = (_req, body, res) => {
      if (body === '{"n":1}') return answer(res, 201, { data: { entry_id: `id-${KEY}` } });
      return answer(res, 409, { error: { code: 'conflict', message: `key ${KEY.slice(9)} was used` } });
    };
    const s = sender();
    const ok = await once(s, request(1));
    expect(ok.entryId).toBe('id-***REDACTED***');
    const refused = await once(s, request(2)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'conflict', message: 'key ***REDACTED*** was used', request: { method: 'POST', path: '/deliveries/v1/parcels' } });
  });

  it('a 429 or 503 carries its Retry-After (seconds or an HTTP-date read against the answer\'s Date)', async () => {
    handler = (_req, body, res) => {
      if (body === '{"n":1}') return answer(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '3' });
      return answer(res, 503, {}, { date: 'Mon, 23 Nov 2026 10:00:00 GMT', 'retry-after': 'Mon, 23 Nov 2026 10:00:07 GMT' });
    };
    const s = sender();
    await expect(once(s, request(1))).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 3 });
    await expect(once(s, request(2))).rejects.toMatchObject({ status: 503, code: 'unavailable', retryAfter: 7 });
  });

  it('no answer within the timeout (on its clock) is a timeout; a refused connection is reported as such', async () => {
    let now = 0;
    let arrived: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    handler = () => arrived?.();
    const s = sender({ now: () => now, timeoutMs: 40 });
    const pending = once(s, request(1));
    await reached;
    now = 41;
    await expect(pending).rejects.toThrow(new NetworkError('no complete answer within the timeout (40 ms)', 'timeout'));

    const refused = new ApiClient({ baseUrl: 'http://127.0.0.1:9/', apiKey: KEY, userAgent: 'parcels-test/1', timeoutMs: 5_000, retries: 0, connections: 1 });
    senders.push(refused);
    await expect(once(refused, request(1))).rejects.toMatchObject({ name: 'NetworkError', code: 'connection_refused' });
  });

  it('an abort of the run\'s signal cancels what is in flight; an aborted signal sends nothing', async () => {
    let arrived: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let requests = 0;
    handler = () => {
      requests++;
      arrived?.();
    };
    const stop = new AbortController();
    const s = sender();
    const pending = once(s, request(1), stop.signal);
    await reached;
    stop.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect(once(s, request(2), stop.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(requests).toBe(1);
  });

  it('sends started at once share one pool of at most `connections` connections', async () => {
    const ports = new Set<number>();
    handler = (req, _body, res) => {
      ports.add(req.socket.remotePort as number);
      setTimeout(() => answer(res, 201, { data: { entry_id: UUID } }), 5);
    };
    const s = sender({ connections: 3 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => once(s, request(i))));
    expect(results.every((r) => r.entryId === UUID)).toBe(true);
    expect(ports.size).toBe(3);
  });

  it('a line is retried by the client chain itself as the run counts: each attempt through the trace piece, the same key and bytes', async () => {
    const seen: string[] = [];
    handler = (req, body, res) => {
      seen.push(`${String(req.headers['idempotency-key'])} ${body}`);
      if (seen.length === 1) return answer(res, 503, { error: { code: 'unavailable', message: 'busy' } });
      return answer(res, 201, { data: { entry_id: UUID } });
    };
    const traced: string[] = [];
    const client = new ApiClient({ baseUrl: url, apiKey: KEY, userAgent: 'parcels-test/1', timeoutMs: 5_000, retries: 0, connections: 1, gate: new PoolGate(), trace: (line) => traced.push(line) });
    senders.push(client);
    const run: LineRun = { counting: { retries: 2, pausesCount: false, repeatable: true }, retry: { gate: undefined, wait: undefined, sleep: async () => undefined, random: () => 0.5 }, abandon: undefined };
    expect(await client.send(request(1), run)).toEqual({ status: 201, entryId: UUID, replayed: false });
    expect(seen).toEqual(['bulk-key-1-abcdefgh {"n":1}', 'bulk-key-1-abcdefgh {"n":1}']);
    expect(traced.filter((line) => line.startsWith('> POST') || line.startsWith('< 5') || line.startsWith('< 2'))).toEqual([
      `> POST ${url.slice(0, -'/base/'.length)}/base/deliveries/v1/parcels`,
      expect.stringMatching(/^< 503 Service Unavailable \(\d+ ms\)$/),
      `> POST ${url.slice(0, -'/base/'.length)}/base/deliveries/v1/parcels (attempt 2)`,
      expect.stringMatching(/^< 201 Created \(\d+ ms\)$/),
    ]);
  });
});
