import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';

export interface Listening {
  server: Server;
  /** e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free port) and serves the app. */
export function listen(app: App, host = '127.0.0.1', port = 0): Promise<Listening> {
  const server = createServer({ keepAliveTimeout: 5_000 }, app.handle);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address() as AddressInfo;
      const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      resolve({
        server,
        url: `http://${h}:${addr.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
