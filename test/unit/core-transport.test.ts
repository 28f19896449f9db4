/** The transport pieces of the request core: the URL guard and the words of a timeout. */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transport } from '../../src/api/core/exchange.js';
import { serviceOf } from '../../src/api/core/transport.js';
import { NetworkError } from '../../src/errors.js';

describe('the URL guard', () => {
  it('takes http(s) base URLs without credentials, keeping the base path', () => {
    expect(serviceOf('https://api.example.com/v2/')).toEqual({ origin: 'https://api.example.com', basePath: '/v2' });
    expect(serviceOf('http://127.0.0.1:8787')).toEqual({ origin: 'http://127.0.0.1:8787', basePath: '' });
  });

  it('refuses other schemes and credentials in the URL', () => {
    for (const url of ['ftp://api.example.com', 'file:///etc/passwd', 'https://user:pass@api.example.com', 'https://token@api.example.com']) {
      expect(() => serviceOf(url)).toThrow('the request core needs an http(s) base URL without credentials');
    }
  });
});

describe('a timeout', () => {
  it("is said one way whichever timer notices it: undici's headers timer gives the same words as the deadline sweep", async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // A clock that never moves: only undici's own headers timer can end this request.
    const transport = new Transport({ origin: `http://127.0.0.1:${port}`, timeoutMs: 100, connections: 1, maxResponseBytes: 1024, now: () => 0 });
    try {
      const failure = await transport.exchange({ method: 'GET', target: '/v1/parcels', headers: [], body: undefined, signal: undefined, lean: false }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(NetworkError);
      expect(failure).toMatchObject({ code: 'timeout', message: 'no complete answer within the timeout (100 ms)' });
    } finally {
      await transport.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
