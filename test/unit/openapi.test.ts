/** docs/openapi.json: generated from the shared schemas, valid OpenAPI 3.1, faithful to the spec's route table. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { deliveryAttemptSchema, statusEventSchema } from '../../src/schemas/history.js';
import { REQUEST_EXAMPLES, openApiDocument } from '../../src/schemas/openapi.js';
import { parcelCreateSchema, parcelPatchSchema } from '../../src/schemas/parcel.js';
import { validate } from '../../src/schemas/validate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const render = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

interface Operation {
  security: { bearerAuth: string[] }[];
  parameters?: { $ref: string }[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: { $ref: string }; example?: unknown } } };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  servers: { url: string; variables: { base_url: { default: string } } }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
}
const doc = openApiDocument() as unknown as Doc;

/** The spec's section 4 table, written out here so the document is checked against the spec, not against itself. */
const SPEC_ROUTES: [string, string, string, number][] = [
  ['get', '/account/v1/couriers', 'deliveries:read', 200],
  ['get', '/account/v1/overview', 'deliveries:read', 200],
  ['get', '/account/v1/usage', 'usage:read', 200],
  ['get', '/account/v1/usage/requests', 'usage:read', 200],
  ['get', '/deliveries/v1/parcels', 'deliveries:read', 200],
  ['post', '/deliveries/v1/parcels', 'deliveries:write', 201],
  ['get', '/deliveries/v1/parcels/{id}', 'deliveries:read', 200],
  ['patch', '/deliveries/v1/parcels/{id}', 'deliveries:write', 200],
  ['get', '/deliveries/v1/parcels/{id}/events', 'deliveries:read', 200],
  ['post', '/deliveries/v1/parcels/{id}/events', 'deliveries:write', 201],
  ['get', '/deliveries/v1/parcels/{id}/attempts', 'deliveries:read', 200],
  ['post', '/deliveries/v1/parcels/{id}/attempts', 'deliveries:write', 201],
  ['post', '/deliveries/v1/address/validate', 'deliveries:write', 200],
  ['get', '/deliveries/v1/reference', 'deliveries:read', 200],
  ['get', '/deliveries/v1/oracle/{metric}', 'oracle:read', 200],
];

describe('docs/openapi.json', () => {
  it('is up to date with the shared schemas (else run `npm run docs`)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'), 'docs/openapi.json is stale: run `npm run docs`').toBe(render(doc));
  });

  it('`npm run docs` writes exactly this document', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'parcels-openapi-')), 'openapi.json');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-openapi.mjs'), out], { stdio: 'ignore' });
    expect(readFileSync(out, 'utf8')).toBe(render(doc));
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as Record<string, unknown>);
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    // The validator does reject a broken document, so the check above can fail.
    expect((await new Validator().validate({ ...doc, paths: { '/x': { get: { responses: 'none' } } } })).valid).toBe(false);
  });

  it('is labelled 0.1.0 with {base_url} as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.servers).toEqual([{ url: '{base_url}', description: 'The service base address.', variables: { base_url: { default: 'https://api.example.com' } } }]);
    expect((openApiDocument('http://127.0.0.1:9') as unknown as Doc).servers[0]?.variables.base_url.default).toBe('http://127.0.0.1:9');
  });

  it('has the 15 routes, each with its scope, success status and every error status of section 7', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(operations.sort()).toEqual(SPEC_ROUTES.map(([method, path]) => `${method} ${path}`).sort());
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [method, path, scope, status] of SPEC_ROUTES) {
      const op = doc.paths[path]?.[method] as Operation;
      expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [scope] }]);
      expect(Object.keys(op.responses).sort(), `${method} ${path}`).toEqual(
        [String(status), '400', '401', '403', '404', '409', '412', '422', '429', '500', '503'].sort(),
      );
    }
  });

  it('takes request bodies, headers and parameters from the shared schemas', () => {
    const op = (method: string, path: string) => doc.paths[path]?.[method] as Operation;
    const refs = (o: Operation) => (o.parameters ?? []).map((p) => p.$ref.split('/').at(-1));
    expect(op('post', '/deliveries/v1/parcels').requestBody?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ParcelCreate' });
    expect(refs(op('post', '/deliveries/v1/parcels'))).toEqual(['IdempotencyKey']);
    expect(refs(op('post', '/deliveries/v1/parcels/{id}/events'))).toEqual(['ParcelId', 'IdempotencyKey']);
    expect(refs(op('post', '/deliveries/v1/parcels/{id}/attempts'))).toEqual(['ParcelId', 'IdempotencyKey']);
    expect(refs(op('patch', '/deliveries/v1/parcels/{id}'))).toEqual(['ParcelId', 'IfMatch']);
    expect(refs(op('get', '/deliveries/v1/parcels'))).toEqual(['List_limit', 'List_cursor', 'List_courier', 'List_status']);
    expect(op('get', '/deliveries/v1/parcels/{id}').responses['200']?.headers).toHaveProperty('ETag');
    const { ParcelCreate, StatusEvent, DeliveryAttempt, ParcelPatch } = doc.components.schemas;
    expect(ParcelCreate?.required).toEqual(['courier', 'country', 'postal_code', 'number']);
    expect(StatusEvent).toMatchObject({
      additionalProperties: false,
      required: ['occurred_at'],
      properties: { status: { type: 'integer', minimum: 0, maximum: 3, default: 0 }, occurred_at: { type: 'integer', minimum: 946684800, format: 'int64' } },
    });
    expect(DeliveryAttempt).toMatchObject({
      additionalProperties: false,
      properties: {
        outcome: { minimum: 0, maximum: 4, default: 0 },
        reason: { minimum: 0, maximum: 10, default: 0 },
        attempt_no: { const: 0 },
        delivered: { additionalProperties: false, required: ['delivered_country', 'delivered_postal_code', 'delivered_number'], properties: { delivered_country: { const: 'NL' } } },
      },
    });
    expect(ParcelPatch).toMatchObject({ minProperties: 1, properties: { parcel_weight: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } });
  });

  it("the request bodies' worked examples pass the shared schemas and sit on their operations", () => {
    const now = () => Math.floor(Date.now() / 1000);
    expect(validate(parcelCreateSchema, REQUEST_EXAMPLES.ParcelCreate).ok).toBe(true);
    expect(validate(parcelPatchSchema, REQUEST_EXAMPLES.ParcelPatch).ok).toBe(true);
    expect(validate(statusEventSchema(now), REQUEST_EXAMPLES.StatusEvent).ok).toBe(true);
    expect(validate(deliveryAttemptSchema(now), REQUEST_EXAMPLES.DeliveryAttempt).ok).toBe(true);
    const example = (method: string, path: string) => doc.paths[path]?.[method]?.requestBody?.content['application/json'].example;
    expect(example('post', '/deliveries/v1/parcels')).toEqual(REQUEST_EXAMPLES.ParcelCreate);
    expect(example('post', '/deliveries/v1/parcels/{id}/attempts')).toEqual(REQUEST_EXAMPLES.DeliveryAttempt);
  });
});
