/**
 * parcels/testing against a server that is not a sandbox (connectTestSandbox takes any URL): its
 * error text reaches a test's output only made inert, so it cannot drive the terminal that shows it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { TestSandboxError, connectTestSandbox } from '../../src/testing/index.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((ok) => s.close(ok)))));

async function hostile(status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('escape sequences and bidi controls in an error envelope are made inert in the TestSandboxError', async () => {
  const url = await hostile(401, JSON.stringify({ error: { code: 'bad\u001b[2J', message: 'retitled\u001b]0;owned\u0007 \u202eevil\u009b31m' } }));
  const err = await connectTestSandbox({ url, adminToken: 'whatever-token' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TestSandboxError);
  expect(err).toMatchObject({
    status: 401,
    code: 'bad[2J',
    message: 'the sandbox answered GET /_sandbox/v1/clock with 401 bad[2J: retitled]0;owned <U+202E>evil31m',
  });
});

it('an answer that is not JSON says so, without its text', async () => {
  const url = await hostile(200, '\u001b[31m<html>not a sandbox</html>');
  const err = await connectTestSandbox({ url, adminToken: 'whatever-token' }).catch((e: unknown) => e);
  expect(err).toMatchObject({ name: 'TestSandboxError', status: 200, code: 'not_json' });
  expect((err as Error).message).toBe(`the sandbox at ${url} answered GET /_sandbox/v1/clock with 200 and a body that is not JSON: is it a parcels sandbox?`);
});
