import type { IncomingMessage, ServerResponse } from 'node:http';

/** Outside /account and /deliveries, so it can never shadow an API route. */
export const OPENAPI_PATH = '/openapi.json';
/** The sandbox's own description, labelled "sandbox only": the full shapes it answers with (openapi-sandbox.ts). */
export const SANDBOX_OPENAPI_PATH = '/_sandbox/openapi.json';

/** Each served document, its generator loaded on the first request for it. */
const RENDER: Readonly<Record<string, (baseUrl: string) => Promise<unknown>>> = {
  [OPENAPI_PATH]: async (baseUrl) => (await import('../schemas/openapi.js')).openApiDocument(baseUrl),
  [SANDBOX_OPENAPI_PATH]: async (baseUrl) => (await import('./openapi-sandbox.js')).sandboxOpenApiDocument(baseUrl),
};

/** The described path a GET or HEAD asks for (any query), or undefined. */
function documentPath(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const path = req.url?.split('?', 1)[0];
  return path !== undefined && Object.hasOwn(RENDER, path) ? path : undefined;
}

/** Whether this request asks for an API description (GET or HEAD /openapi.json or /_sandbox/openapi.json, any query). */
export function isOpenApiRequest(req: IncomingMessage): boolean {
  return documentPath(req) !== undefined;
}

/** One rendering kept per document (a process usually runs one sandbox). */
const last = new Map<string, { baseUrl: string; body: Promise<string> }>();

/**
 * Answers with the API description asked for, its `{base_url}` defaulting to the listener's bound
 * address `baseUrl` (never the Host header, which a rebinding page chooses). No key needed, no
 * faults, no usage row: it describes the API and is not part of it. A HEAD gets GET's headers only.
 */
export function serveOpenApi(res: ServerResponse, baseUrl: string): void {
  const path = documentPath(res.req) ?? OPENAPI_PATH;
  let kept = last.get(path);
  if (kept === undefined || kept.baseUrl !== baseUrl) {
    kept = { baseUrl, body: (RENDER[path] as (baseUrl: string) => Promise<unknown>)(baseUrl).then((doc) => `${JSON.stringify(doc, null, 2)}\n`) };
    last.set(path, kept);
  }
  void kept.body.then(
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
