/**
 * The sandbox's own API description, labelled "sandbox only" (GET /_sandbox/openapi.json): the main
 * document (src/schemas/openapi.ts, what the spec shows) with the full shapes this sandbox answers
 * with, which the spec leaves open: the parcel, its events and attempts, a list page and the error
 * body. A client of the real service is generated from GET /openapi.json, never from this one.
 * test/sandbox/openapi-sandbox.test.ts checks the sandbox's real answers against it.
 */
import { EVENT_STATUS_MAX, PARCEL_STATUS_MAX, PARCEL_STATUS_MIN } from '../schemas/codes.js';
import { openApiDocument } from '../schemas/openapi.js';
import { PARCEL_FIELDS } from '../schemas/parcel-fields.js';
import type { RouteSpec } from '../schemas/routes.js';
import { ROUTES } from '../schemas/routes.js';

type Json = { [key: string]: unknown };

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const UUID = { type: 'string', format: 'uuid' };
const UNIX_SECONDS = { type: 'integer', format: 'int64', description: 'Unix seconds UTC.' };
const closed = (properties: Json, description: string): Json => ({ type: 'object', description, properties, required: Object.keys(properties), additionalProperties: false });
const envelopeOf = (payload: Json): Json => closed({ data: payload }, 'The envelope with its payload in `data`.');

/** Each field of the parcel table, as the sandbox shows it: every field present, null when unset. */
function parcelSchema(): Json {
  const fields = Object.fromEntries(
    PARCEL_FIELDS.map((field) => {
      const type = field.kind === 'text' ? 'string' : 'integer';
      return [field.name, { type: field.required ? type : [type, 'null'], description: field.description }];
    }),
  );
  return closed(
    {
      entry_id: UUID,
      ...fields,
      status: { type: 'integer', minimum: PARCEL_STATUS_MIN, maximum: PARCEL_STATUS_MAX },
      created_at: UNIX_SECONDS,
      updated_at: UNIX_SECONDS,
    },
    'A parcel as the sandbox answers it.',
  );
}

const SANDBOX_SCHEMAS: Json = {
  Parcel: parcelSchema(),
  ParcelPage: closed(
    {
      parcels: { type: 'array', items: schemaRef('Parcel') },
      next_cursor: { type: ['string', 'null'], description: 'Null on the last page.' },
    },
    'A page of parcels, oldest first.',
  ),
  StatusEventRecord: closed(
    { event_id: UUID, entry_id: UUID, status: { type: 'integer', minimum: 0, maximum: EVENT_STATUS_MAX }, occurred_at: UNIX_SECONDS, recorded_at: UNIX_SECONDS },
    'A status event as recorded.',
  ),
  DeliveryAttemptRecord: closed(
    {
      attempt_no: { type: 'integer', minimum: 1 },
      entry_id: UUID,
      outcome: { type: 'integer' },
      reason: { type: 'integer' },
      time_attempt: UNIX_SECONDS,
      delivered: { anyOf: [schemaRef('DeliveredAddress'), { type: 'null' }] },
      recorded_at: UNIX_SECONDS,
    },
    'A delivery attempt as recorded.',
  ),
  ErrorBody: {
    type: 'object',
    description: 'What went wrong: a stable snake_case code, a message, the request field at fault and every problem found.',
    properties: {
      code: { type: 'string' },
      message: { type: 'string' },
      field: { type: 'string' },
      details: { type: 'array', items: closed({ field: { type: 'string' }, message: { type: 'string' } }, 'One problem.') },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  },
  SandboxErrorEnvelope: closed({ data: { type: 'null' }, error: schemaRef('ErrorBody') }, "The sandbox's error answer."),
};

/** The payload a route's success answer carries in the sandbox, where it has a full shape here. */
const SUCCESS_PAYLOAD: Readonly<Partial<Record<RouteSpec['name'], Json>>> = {
  'parcels.list': schemaRef('ParcelPage'),
  'parcels.create': schemaRef('Parcel'),
  'parcels.get': schemaRef('Parcel'),
  'parcels.patch': schemaRef('Parcel'),
  'events.list': closed({ events: { type: 'array', items: schemaRef('StatusEventRecord') } }, 'Up to 1000 events, oldest first.'),
  'events.create': schemaRef('StatusEventRecord'),
  'attempts.list': closed({ attempts: { type: 'array', items: schemaRef('DeliveryAttemptRecord') } }, 'The attempts, oldest first.'),
  'attempts.create': schemaRef('DeliveryAttemptRecord'),
};

interface Operation {
  responses: Record<string, { content?: { 'application/json': { schema: Json } } }>;
}
interface Document {
  info: Json;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Json; responses: Record<string, { content: { 'application/json': { schema: Json } } }> };
}

/** The sandbox-only document; `baseUrl` becomes the `{base_url}` server variable's default. */
export function sandboxOpenApiDocument(baseUrl: string): Json {
  const doc = openApiDocument(baseUrl) as unknown as Document;
  doc.info = {
    ...doc.info,
    title: 'Parcel Delivery Tracking API: parcels sandbox (sandbox only)',
    description:
      'Sandbox only. The shapes `parcels sandbox` answers with, which the specification does not show: the real service may answer otherwise. Generate clients of the service from GET /openapi.json.',
  };
  doc.components.schemas = { ...doc.components.schemas, ...SANDBOX_SCHEMAS };
  for (const response of Object.values(doc.components.responses)) response.content['application/json'].schema = schemaRef('SandboxErrorEnvelope');
  for (const route of ROUTES) {
    const payload = SUCCESS_PAYLOAD[route.name];
    const success = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(route.status)];
    if (payload !== undefined && success !== undefined) success.content = { 'application/json': { schema: envelopeOf(payload) } };
  }
  return doc as unknown as Json;
}
