import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a hostile loopback server answers: any status, any headers (a Date, an Age), any body. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  /** The body's exact text, sent instead of `body` serialised (escapes a serialiser would not write). */
  raw?: string;
}

export interface HostileServer {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 port 0 that records every request and answers it with `answer`. */
export async function startHostileServer(answer: (req: { method: string; url: string }) => Answer): Promise<HostileServer> {
  const seen: HostileServer['seen'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method ?? 'GET', url: req.url ?? '/' };
      seen.push({ ...request, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answer(request);
      const text = a.raw ?? JSON.stringify(a.body);
      res.sendDate = !Object.keys(a.headers ?? {}).some((h) => h.toLowerCase() === 'date');
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
