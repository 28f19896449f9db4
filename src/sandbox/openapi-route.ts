import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as OpenApi from '../schemas/openapi.js';

/** Outside /account and /deliveries, so it can never shadow an API route. */
export const OPENAPI_PATH = '/openapi.json';

const OPENAPI_WITH_QUERY = `${OPENAPI_PATH}?`;

/** Whether this request asks for the API description (GET or HEAD /openapi.json, any query). */
export function isOpenApiRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.url === OPENAPI_PATH || req.url?.startsWith(OPENAPI_WITH_QUERY) === true);
}

let generator: Promise<typeof OpenApi> | undefined;
let last: { baseUrl: string; body: Promise<string> } | undefined;

/**
 * Answers with the OpenAPI description, its `{base_url}` defaulting to the listener's bound address
 * `baseUrl` (never the Host header, which a rebinding page chooses). No key needed, no faults, no
 * usage row: it describes the API and is not part of it. The generator loads on the first such request.
 */
export function serveOpenApi(res: ServerResponse, baseUrl: string): void {
  generator ??= import('../schemas/openapi.js');
  // One rendering kept (a process usually runs one sandbox).
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
