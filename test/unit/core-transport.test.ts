/** The transport pieces of the request core: undici's entry points and the URL guard. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadIndex, loadInternals, loadUndici, serviceOf } from '../../src/api/core/transport.js';

describe("undici's internal modules", () => {
  it('load, and are the very Pool and request() of its public entry: a release that moves or changes them fails here', async () => {
    const internals = await loadInternals();
    const index = await loadIndex();
    expect(internals.source).toBe('internals');
    expect(index.source).toBe('index');
    expect(internals.Pool).toBe(index.Pool);
    expect(internals.request).toBe(index.request);
    expect((await loadUndici()).source).toBe('internals');
  });

  it('the public entry, the fallback, sends a request', async () => {
    const server = createServer((_req, res) => res.end('{"data":"via index"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { Pool, request } = await loadIndex();
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const response = await request.call(pool, { path: '/x', method: 'GET' });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ data: 'via index' });
    } finally {
      await pool.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

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
