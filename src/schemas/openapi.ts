/**
 * The machine-readable description the spec names (section 9): OpenAPI 3.1, version 0.1.0,
 * `{base_url}` as server. Request bodies and parameters come from the shared zod schemas (zod 4's
 * toJSONSchema), routes and scopes from the route table; responses are the generic envelope
 * (section 4) and the error statuses of section 7. docs/openapi.json is this document
 * (`npm run docs`); the sandbox serves it at GET /openapi.json with its own URL as the default server.
 */
import * as z from 'zod/mini';
import { deliveredAddressSchema, deliveryAttemptSchema, statusEventSchema } from './history.js';
import { parcelCreateSchema, parcelListQuerySchema, parcelPatchSchema } from './parcel.js';
import { UUID_PATTERN } from './parcel-id.js';
import type { RouteSpec } from './routes.js';
import { ROUTES } from './routes.js';
import { MAX_FUTURE_SKEW_S, MIN_OBSERVATION_TIME } from './time.js';

type Json = { [key: string]: unknown };

export const API_DESCRIPTION_VERSION = '0.1.0';
/** The server variable's default when no base URL is known. */
const PLACEHOLDER_BASE_URL = 'https://api.example.com';

/** Section 7: every route may answer these, each with an envelope body. */
const ERROR_STATUSES: Readonly<Record<number, string>> = {
  400: 'Invalid request.',
  401: 'Invalid or expired credentials.',
  403: 'Missing permission or verification.',
  404: 'Resource not found.',
  409: 'Conflict. Known case: same Idempotency-Key reused with a changed body.',
  412: 'Stale or missing If-Match.',
  422: 'Validation failed.',
  429: 'Rate limit exceeded.',
  500: 'Internal failure.',
  503: 'Service or oracle unavailable.',
};

/** What JSON Schema cannot say of the shared schemas' refinements (UTF-8 byte lengths, the clock). */
const OBSERVATION_TIME = `Unix seconds UTC; at least ${MIN_OBSERVATION_TIME} (2000-01-01), at most ${MAX_FUTURE_SKEW_S / 60} minutes in the future.`;
const DELIVERED_TEXT = 'No line breaks and no NUL characters; at most 32 UTF-8 bytes.';
const FIELD_NOTES: Readonly<Record<string, string>> = {
  occurred_at: OBSERVATION_TIME,
  time_attempt: OBSERVATION_TIME,
  delivered_postal_code: `Dutch postcode: four digits followed by two letters. ${DELIVERED_TEXT}`,
  delivered_number: `House number as text, not empty. ${DELIVERED_TEXT}`,
  delivered_city: DELIVERED_TEXT,
  delivered_street: DELIVERED_TEXT,
  delivered_addition: `${DELIVERED_TEXT} Omit or use an empty string when there is none.`,
  delivered: 'Delivered-address group; allowed only when outcome is 0 (delivered) or 2 (delivered elsewhere).',
  attempt_no: 'Omit: the service assigns the sequence number. Only 0 is valid.',
};

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a shared schema, as a request's input. */
function jsonSchema(schema: z.ZodMiniType): Json {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    // Refinements (byte lengths, the five-minute rule) have no JSON Schema form: FIELD_NOTES says them.
    unrepresentable: 'any',
  }) as Json;
  delete converted.$schema;
  return tidy(converted) as Json;
}

/** Drops zod's safe-integer bounds (int64 fields say so instead) and adds FIELD_NOTES. */
function tidy(node: unknown, name?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item));
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([prop, schema]) => [prop, tidy(schema, prop)]));
    else out[key] = tidy(value);
  }
  if (name !== undefined && FIELD_NOTES[name] !== undefined) out.description = FIELD_NOTES[name];
  if (name === 'occurred_at' || name === 'time_attempt') out.format = 'int64';
  return out;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function components(): Json {
  // The event and attempt schemas take a clock for the five-minute rule; a refinement, so any clock renders the same.
  const clock = () => 0;
  const listQuery = jsonSchema(parcelListQuerySchema) as { properties: Record<string, Json> };
  const queryParameters = Object.fromEntries(
    Object.entries(listQuery.properties).map(([name, schema]) => [
      `List_${name}`,
      { name, in: 'query', required: false, schema, description: LIST_PARAMETER_NOTES[name] },
    ]),
  );
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      `Error${status}`,
      {
        description,
        ...(status === '429' ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } } : {}),
        content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope') } },
      },
    ]),
  );
  return {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'An API key from the console, sent as `Authorization: Bearer <API_KEY>`. Each operation lists the scope the key must hold: deliveries:read, deliveries:write, usage:read or oracle:read.',
      },
    },
    schemas: {
      // Open objects (additionalProperties), so a generated client types the two fields the spec
      // shows and still reads the rest, instead of an empty object type.
      Envelope: {
        type: 'object',
        description: 'Every response body. The payload is in `data`; its shape per route is not shown by the spec. Other fields are not shown.',
        properties: {
          data: {
            type: 'object',
            description: 'Payload. Holds `entry_id` for a parcel and `next_cursor` for a list page; its other fields are not shown by the spec.',
            properties: {
              entry_id: { type: 'string', format: 'uuid', description: "A parcel's identifier: every `{id}` path parameter takes this value." },
              next_cursor: {
                type: ['string', 'null'],
                description: 'A list page: pass it unchanged as `cursor` for the next page. Absent, null or empty on the last page.',
              },
            },
            additionalProperties: true,
          },
        },
        required: ['data'],
        additionalProperties: true,
      },
      ErrorEnvelope: {
        type: 'object',
        description: 'An error answer: an envelope. Error body fields and error code strings are not shown by the spec.',
        additionalProperties: true,
      },
      ParcelCreate: jsonSchema(parcelCreateSchema),
      // The refinement "at least one field" of the shared schema, said in JSON Schema.
      ParcelPatch: { ...jsonSchema(parcelPatchSchema), minProperties: 1 },
      StatusEvent: jsonSchema(statusEventSchema(clock)),
      DeliveryAttempt: jsonSchema(deliveryAttemptSchema(clock)),
      DeliveredAddress: jsonSchema(deliveredAddressSchema),
      AddressCheck: { type: 'object', description: 'A Dutch address; request fields are not shown by the spec.' },
    },
    parameters: {
      ParcelId: {
        name: 'id',
        in: 'path',
        required: true,
        description: "The parcel's `data.entry_id`, a UUID.",
        // JSON Schema patterns take no flags: the case-insensitive UUID pattern spelt out.
        schema: { type: 'string', pattern: UUID_PATTERN.source.replaceAll('[0-9a-f]', '[0-9a-fA-F]') },
      },
      Metric: {
        name: 'metric',
        in: 'path',
        required: true,
        description: 'An aggregation (activity, planned) or coverage metadata; allowed values are not shown by the spec.',
        schema: { type: 'string', minLength: 1 },
      },
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description: 'Repeating the same method, URL and exact body bytes with the same key is a replay; a changed body gives 409. 8 to 128 bytes, no leading or trailing whitespace.',
        schema: { type: 'string', pattern: '^\\S(.*\\S)?$' },
      },
      IfMatch: {
        name: 'If-Match',
        in: 'header',
        required: true,
        description: 'The latest ETag, copied verbatim including its double quotes. Missing or stale: 412.',
        schema: { type: 'string', pattern: '^(W/)?"[^"]*"$' },
      },
      ...queryParameters,
    },
    responses: errorResponses,
  };
}

const LIST_PARAMETER_NOTES: Readonly<Record<string, string>> = {
  limit: 'Page size, 1 to 100, default 50.',
  cursor: 'Take `data.next_cursor` unchanged from the previous page. Omit for the first page.',
  courier: 'Exact registered courier code in the organisation. Omitted: all couriers.',
  status: 'Status 0 to 5. Omitted: all statuses.',
};

/** 2025-11-23T08:00:00Z: a past observation time for the examples. */
const EXAMPLE_TIME = 1_763_884_800;

/**
 * Worked examples of the request bodies (the spec: "worked examples complement" the generic
 * schemas). test/unit/openapi.test.ts checks each against its shared schema, and
 * test/sandbox/openapi.test.ts sends each to a sandbox.
 */
export const REQUEST_EXAMPLES = {
  ParcelCreate: { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1200 },
  ParcelPatch: { parcel_weight: null, addition: '' },
  StatusEvent: { status: 2, occurred_at: EXAMPLE_TIME },
  DeliveryAttempt: {
    time_attempt: EXAMPLE_TIME,
    outcome: 2,
    reason: 0,
    delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12' },
  },
  AddressCheck: { country: 'NL', postal_code: '1234AB', number: '10' },
} as const;

/** What a route takes beyond its path: body schema, headers and query, from the route's name. */
const ROUTE_INPUT: Readonly<Partial<Record<RouteSpec['name'], { body?: keyof typeof REQUEST_EXAMPLES; parameters?: string[] }>>> = {
  'parcels.list': { parameters: ['List_limit', 'List_cursor', 'List_courier', 'List_status'] },
  'parcels.create': { body: 'ParcelCreate', parameters: ['IdempotencyKey'] },
  'parcels.get': { parameters: ['ParcelId'] },
  'parcels.patch': { body: 'ParcelPatch', parameters: ['ParcelId', 'IfMatch'] },
  'events.list': { parameters: ['ParcelId'] },
  'events.create': { body: 'StatusEvent', parameters: ['ParcelId', 'IdempotencyKey'] },
  'attempts.list': { parameters: ['ParcelId'] },
  'attempts.create': { body: 'DeliveryAttempt', parameters: ['ParcelId', 'IdempotencyKey'] },
  'address.validate': { body: 'AddressCheck' },
  'oracle.get': { parameters: ['Metric'] },
};

const SUMMARIES: Readonly<Record<RouteSpec['name'], string>> = {
  'couriers.list': "List the organisation's registered couriers.",
  'overview.get': "Counts within the caller's organisation.",
  'usage.daily': 'Daily usage totals over 30 days.',
  'usage.requests': 'Latest 100 usage requests within 30 days.',
  'parcels.list': 'List parcels, cursor pagination.',
  'parcels.create': 'Create a parcel.',
  'parcels.get': 'Read one parcel; the response includes the ETag.',
  'parcels.patch': 'Change a parcel. A field set to null is cleared; a text field set to an empty string is cleared.',
  'events.list': 'Up to 1000 status events of a parcel.',
  'events.create': 'Report status 0 to 3.',
  'attempts.list': 'Read the delivery attempts of a parcel.',
  'attempts.create': 'Report a delivery attempt (statuses 4 and 5 come only this way).',
  'address.validate': 'Check a Dutch address.',
  'reference.get': 'Statuses, units and reference codes, including service and location codes.',
  'oracle.get': 'Aggregation activity/planned, or coverage metadata.',
};

function operation(route: RouteSpec): Json {
  const input = ROUTE_INPUT[route.name] ?? {};
  const success: Json = {
    description: route.status === 201 ? 'Created: the new record in `data`.' : 'Success: the payload in `data`.',
    ...(route.name === 'parcels.get' ? { headers: { ETag: { description: 'Quoted entity tag; send it verbatim in If-Match.', schema: { type: 'string' } } } } : {}),
    content: { 'application/json': { schema: ref('schemas', 'Envelope') } },
  };
  return {
    operationId: route.name.replace(/\.(\w)/, (_, c: string) => c.toUpperCase()),
    summary: SUMMARIES[route.name],
    tags: [route.path.split('/')[1] as string],
    security: [{ bearerAuth: [route.scope] }],
    'x-scope': route.scope,
    ...(input.parameters ? { parameters: input.parameters.map((name) => ref('parameters', name)) } : {}),
    ...(input.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', input.body), example: REQUEST_EXAMPLES[input.body] } } } }
      : {}),
    responses: {
      [String(route.status)]: success,
      ...Object.fromEntries(Object.keys(ERROR_STATUSES).map((status) => [status, ref('responses', `Error${status}`)])),
    },
  };
}

/** The OpenAPI 3.1 document; `baseUrl` becomes the `{base_url}` server variable's default. */
export function openApiDocument(baseUrl: string | undefined = PLACEHOLDER_BASE_URL): Json {
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parcel Delivery Tracking API',
      version: API_DESCRIPTION_VERSION,
      description:
        'Register parcels with your couriers, report status events and delivery attempts, and read them back. Response schemas are generic envelopes: the payload is in `data`.',
    },
    servers: [{ url: '{base_url}', description: 'The service base address.', variables: { base_url: { default: baseUrl } } }],
    tags: [
      { name: 'account', description: 'Usage data, couriers and an organisation overview (not login steps).' },
      { name: 'deliveries', description: 'Parcels, their events and attempts, address checks, reference codes and metrics.' },
    ],
    paths,
    components: components(),
  };
}
