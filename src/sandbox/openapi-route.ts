import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as OpenApi from '../schemas/openapi.js';

/** Outside /account and /deliveries, so it can never shadow an API route. */
export const OPENAPI_PATH = '/openapi.json';

/** A Host header that can stand in a URL as it is: a name or address and an optional port. */
const PLAIN_HOST = /^(\[[0-9a-fA-F:.]+\]|[\w.-]+)(:\d{1,5})?$/;

/** Whether this request asks for the API description (GET /openapi.json, any query). */
const OPENAPI_WITH_QUERY = `${OPENAPI_PATH}?`;

export function isOpenApiRequest(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.url === OPENAPI_PATH || req.url?.startsWith(OPENAPI_WITH_QUERY) === true);
}

let generator: Promise<typeof OpenApi> | undefined;
let last: { baseUrl: string | undefined; body: Promise<string> } | undefined;

/**
 * Answers with the OpenAPI description, its `{base_url}` defaulting to the address the client used
 * (so a tool pointed at this URL sends its requests here). No key needed, no faults, no usage row:
 * it describes the API and is not part of it. The generator loads on the first such request.
 */
export function serveOpenApi(req: IncomingMessage, res: ServerResponse): void {
  const host = req.headers.host;
  const baseUrl = host !== undefined && PLAIN_HOST.test(host) ? `http://${host}` : undefined;
  generator ??= import('../schemas/openapi.js');
  // Clients of one sandbox use one address: keep the last rendering (one entry, whatever Host headers arrive).
  if (last === undefined || last.baseUrl !== baseUrl) last = { baseUrl, body: generator.then(({ openApiDocument }) => `${JSON.stringify(openApiDocument(baseUrl), null, 2)}\n`) };
  const { body } = last;
  void body.then(
    (text) => {
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
      res.end(text);
    },
    () => {
      if (res.destroyed) return;
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"data":null,"error":{"code":"internal_error","message":"the API description could not be built"}}');
    },
  );
}
