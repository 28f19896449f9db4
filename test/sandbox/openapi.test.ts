/** GET /openapi.json: the sandbox serves the API description, no key needed, its own URL as the default server. */
import { request } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { openApiDocument } from '../../src/schemas/openapi.js';
import { TEST_SEED } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

/** A GET with a Host header of the test's choosing (fetch would not send a hostile one). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /openapi.json', () => {
  it('answers 200 without a key with the generated document, whose {base_url} defaults to the sandbox', async () => {
    const res = await fetch(`${sandbox.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const served = (await res.json()) as Record<string, unknown>;
    expect(served).toEqual(openApiDocument(sandbox.url));
    expect(await new Validator().validate(served)).toEqual({ valid: true });
  });

  it('HEAD answers 200 with the headers of GET and no body (for readiness probes such as curl -I)', async () => {
    const get = await fetch(`${sandbox.url}/openapi.json`);
    const head = await fetch(`${sandbox.url}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await get.text())));
    expect(await head.text()).toBe('');
  });

  it('ignores a query string; another method is not served', async () => {
    expect((await fetch(`${sandbox.url}/openapi.json?format=json`)).status).toBe(200);
    const post = await fetch(`${sandbox.url}/openapi.json`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ data: null, error: { code: 'route_not_found', message: 'no route /openapi.json' } });
  });

  it('the default server is the bound address whatever loopback name the client used', async () => {
    const port = new URL(sandbox.url).port;
    for (const host of [`localhost:${port}`, 'localhost', `[::1]:${port}`]) {
      const res = await getWithHost('/openapi.json', host);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual(openApiDocument(sandbox.url));
    }
  });
});

interface ServedOperation {
  parameters?: { $ref: string }[];
  requestBody?: { content: { 'application/json': { example: unknown } } };
  responses: Record<string, unknown>;
}

describe('the served description matches the sandbox it describes', () => {
  it('every operation, called as described (parameters, headers, example body) with the demo key, answers its success status', async () => {
    const demo = await startSandbox({ port: 0 });
    try {
      const served = (await (await fetch(`${demo.url}/openapi.json`)).json()) as {
        servers: { variables: { base_url: { default: string } } }[];
        paths: Record<string, Record<string, ServedOperation>>;
      };
      const base = served.servers[0]?.variables.base_url.default as string;
      expect(base).toBe(demo.url);
      const call = (method: string, path: string, op: ServedOperation | undefined, headers: Record<string, string> = {}) => {
        const body = op?.requestBody?.content['application/json'].example;
        return fetch(`${base}${path}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${DEMO_API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      };
      const refs = (op: ServedOperation) => (op.parameters ?? []).map((p) => p.$ref.split('/').at(-1));
      const create = served.paths['/deliveries/v1/parcels']?.post;
      const created = await call('post', '/deliveries/v1/parcels', create, { 'idempotency-key': 'openapi-contract-0001' });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { data: { entry_id: string } }).data.entry_id;
      let calls = 0;
      let operations = 0;
      for (const [template, methods] of Object.entries(served.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const path = template.replace('{id}', id).replace('{metric}', 'activity');
          const headers: Record<string, string> = {};
          if (refs(op).includes('IdempotencyKey')) headers['idempotency-key'] = `openapi-contract-${++calls}-${method}`;
          if (refs(op).includes('IfMatch')) headers['if-match'] = (await call('get', path, undefined)).headers.get('etag') as string;
          const success = Object.keys(op.responses).find((status) => status.startsWith('2'));
          const res = await call(method, path, op, headers);
          expect(`${method} ${template} → ${res.status}`).toBe(`${method} ${template} → ${success}`);
          await res.arrayBuffer();
          operations++;
        }
      }
      expect({ operations, idempotent: calls }).toEqual({ operations: 15, idempotent: 3 });
    } finally {
      await demo.close();
    }
  });
});
