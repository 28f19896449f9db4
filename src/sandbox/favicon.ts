/**
 * GET /favicon.ico: what a browser asks of every origin it opens (the inspector page, /openapi.json).
 * Answered 204 without an icon, like the sandbox's other own routes outside the API: not logged,
 * not counted, no faults, so the request log holds only what a client of the API sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const FAVICON_PATH = '/favicon.ico';

/** Whether this is a browser's GET or HEAD of /favicon.ico (any query). */
export function isFaviconRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && req.url?.split('?', 1)[0] === FAVICON_PATH;
}

/** No content; the browser may keep that answer for a day. */
export function answerFavicon(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204, { 'Cache-Control': 'max-age=86400' });
  res.end();
}
