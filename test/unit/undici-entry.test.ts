/** Which undici the request core uses: the internal modules' fast path, or the public entry. */
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERNAL_POOL, INTERNAL_REQUEST, internalsProblems, loadIndex, loadInternals } from '../../src/api/core/undici-entry.js';

const undiciVersion = (createRequire(import.meta.url)('undici/package.json') as { version: string }).version;

describe("undici's internal modules", () => {
  it(`load with the shape the fast path calls, and are the very Pool and request() of undici ${undiciVersion}'s public entry`, async () => {
    const internals = await loadInternals();
    // On failure the diff lists what changed, module by module; the core then uses the public entry
    // (slower start-up): update src/api/core/undici-entry.ts, or drop the fast path.
    expect('problems' in internals ? internals.problems : [], `undici ${undiciVersion} moved or reshaped the modules src/api/core/undici-entry.ts loads by path`).toEqual([]);
    if (!('undici' in internals)) return;
    const index = await loadIndex();
    expect(internals.undici.source).toBe('internals');
    expect(internals.undici.Pool, `${INTERNAL_POOL}'s export is no longer undici.Pool`).toBe(index.Pool);
    expect(internals.undici.request, `${INTERNAL_REQUEST}'s export is no longer undici.Dispatcher.prototype.request`).toBe(index.request);
  });

  it('a changed shape is named, module by module', () => {
    expect(internalsProblems(undefined, {})).toEqual([`${INTERNAL_POOL}'s default export is of type undefined, not the Pool class`, `${INTERNAL_REQUEST}'s default export is of type object, not request()`]);
    expect(internalsProblems(class {}, () => undefined)).toEqual([
      `${INTERNAL_POOL}'s Pool has no dispatch() method`,
      `${INTERNAL_POOL}'s Pool has no close() method`,
      `${INTERNAL_POOL}'s Pool has no destroy() method`,
    ]);
  });
});

describe('the fallback: the public entry', () => {
  afterEach(() => {
    vi.doUnmock(INTERNAL_POOL);
    vi.doUnmock(INTERNAL_REQUEST);
    vi.resetModules();
  });

  /** loadUndici() of a fresh module graph, with the internal modules replaced as given. */
  type ModuleFactory = () => Promise<{ default: unknown }> | { default: unknown };
  async function loadUndiciWith(pool: ModuleFactory, request: ModuleFactory): Promise<string> {
    vi.resetModules();
    vi.doMock(INTERNAL_POOL, pool);
    vi.doMock(INTERNAL_REQUEST, request);
    const { loadUndici } = await import('../../src/api/core/undici-entry.js');
    return (await loadUndici()).source;
  }

  it('is not used when the internal modules are as expected', async () => {
    expect(await loadUndiciWith(() => import('undici/lib/dispatcher/pool.js'), () => import('undici/lib/api/api-request.js'))).toBe('internals');
  });

  it('serves when an internal module is missing', async () => {
    const missing = (): never => {
      throw Object.assign(new Error(`Cannot find module '${INTERNAL_REQUEST}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    expect(await loadUndiciWith(() => import('undici/lib/dispatcher/pool.js'), missing)).toBe('index');
  });

  it('serves when an internal module changed shape', async () => {
    expect(await loadUndiciWith(() => ({ default: { Pool: class {} } }), () => import('undici/lib/api/api-request.js'))).toBe('index');
  });

  it('sends a request', async () => {
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
