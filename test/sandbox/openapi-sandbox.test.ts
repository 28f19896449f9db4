/**
 * GET /_sandbox/openapi.json: the sandbox-only description, whose full shapes (parcel, list page,
 * event, attempt, error body) the sandbox's real answers match, checked with a JSON Schema validator.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { sandboxOpenApiDocument } from '../../src/sandbox/openapi-sandbox.js';
import { openApiDocument } from '../../src/schemas/openapi.js';
import type { Reply } from './helpers.js';
import { PARCEL, TEST_SEED, call, createParcel, newKey, nowS } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface Operation {
  responses: Record<string, { $ref?: string }>;
}
interface Doc {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
}

describe('GET /_sandbox/openapi.json', () => {
  it('answers 200 without a key (HEAD too) with a valid OpenAPI 3.1 document labelled sandbox only', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/openapi.json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as Doc;
    expect(served).toEqual(sandboxOpenApiDocument(sandbox.url));
    expect(served).not.toEqual(openApiDocument(sandbox.url));
    expect(served.info.title).toBe('Parcel Delivery Tracking API: parcels sandbox (sandbox only)');
    expect(served.info.description).toMatch(/^Sandbox only\. /);
    expect(await new Validator().validate(served as unknown as Record<string, unknown>)).toEqual({ valid: true });
    const head = await fetch(`${sandbox.url}/_sandbox/openapi.json?x=1`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it("the sandbox's answers match its shapes: parcel, list page, events, attempts and error bodies", async () => {
    const doc = sandboxOpenApiDocument(sandbox.url) as unknown as Doc;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'doc');
    // A JSON pointer into the document, so the schema's own $refs resolve against it.
    const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    const problems: string[] = [];
    const expectShape = (method: string, path: string, reply: Reply) => {
      const response = doc.paths[path]?.[method]?.responses[String(reply.status)];
      const at = response?.$ref === undefined ? pointer('paths', path, method, 'responses', String(reply.status)) : response.$ref.slice(2);
      const validate = ajv.compile({ $ref: `doc#/${at}/${pointer('content', 'application/json', 'schema')}` });
      if (!validate(reply.body)) problems.push(`${method} ${path} ${reply.status}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    };

    const created = await createParcel(sandbox.url, { parcel_weight: 1200 });
    expect(created.status).toBe(201);
    expectShape('post', '/deliveries/v1/parcels', created);
    const id = created.body.data.entry_id as string;
    const one = `/deliveries/v1/parcels/${id}`;
    expectShape('get', '/deliveries/v1/parcels/{id}', await call(sandbox.url, 'GET', one));
    expectShape('get', '/deliveries/v1/parcels', await call(sandbox.url, 'GET', '/deliveries/v1/parcels?limit=1'));
    const event = await call(sandbox.url, 'POST', `${one}/events`, { body: { status: 1, occurred_at: nowS() - 60 }, idem: newKey() });
    expect(event.status).toBe(201);
    expectShape('post', '/deliveries/v1/parcels/{id}/events', event);
    expectShape('get', '/deliveries/v1/parcels/{id}/events', await call(sandbox.url, 'GET', `${one}/events`));
    const delivered = { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12' };
    const attempt = await call(sandbox.url, 'POST', `${one}/attempts`, { body: { time_attempt: nowS() - 30, outcome: 2, delivered }, idem: newKey() });
    expect(attempt.status).toBe(201);
    expectShape('post', '/deliveries/v1/parcels/{id}/attempts', attempt);
    expectShape('get', '/deliveries/v1/parcels/{id}/attempts', await call(sandbox.url, 'GET', `${one}/attempts`));
    const invalid = await call(sandbox.url, 'POST', '/deliveries/v1/parcels', { body: { ...PARCEL, postal_code: 'x', parcel_weight: -1 }, idem: newKey() });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.length).toBeGreaterThan(0);
    expectShape('post', '/deliveries/v1/parcels', invalid);
    const missing = await call(sandbox.url, 'GET', '/deliveries/v1/parcels/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expectShape('get', '/deliveries/v1/parcels/{id}', missing);
    expect(problems).toEqual([]);
  });
});
