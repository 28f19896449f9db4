/**
 * The sandbox's own routes: the paths it answers outside the API, tried before the API's table
 * (src/schemas/routes.ts, walked by the pipeline). One table, read once per request by the
 * listener (server.ts) and handed on to the app (app.ts), so no path is matched in two places.
 * None of them shadows an API route: they live outside /account/v1/ and /deliveries/v1/.
 */
import type { IncomingMessage } from 'node:http';
import { ADMIN_PREFIX } from './admin.js';
import { isFaviconRequest } from './favicon.js';
import { isHealthRequest } from './health.js';
import { isInspectorRequest } from './inspector/handler.js';
import { isOpenApiRequest } from './openapi-route.js';
import { TENANT_PREFIX } from '../schemas/sandbox-admin.js';

/**
 * - `openapi`: GET /openapi.json, the API description (openapi-route.ts; served by the listener, which knows its bound address);
 * - `health`: GET and HEAD /_sandbox/health, readiness for CI (health.ts);
 * - `admin`: /_sandbox/v1/…, the test bench, with the admin token (admin.ts);
 * - `inspector`: /_sandbox/ui/…, the web inspector (inspector/handler.ts);
 * - `favicon`: GET /favicon.ico, a browser's own request, answered without an icon and not logged (favicon.ts).
 * - `tenant`: /t/<name>/…, a tenant's own sandbox (tenants.ts; the listener hands it the path within).
 */
export type OwnRoute = 'openapi' | 'health' | 'admin' | 'inspector' | 'favicon' | 'tenant';

/** The own route a request asks for; undefined for everything else (the API's routes and unknown paths). */
export function ownRoute(req: IncomingMessage): OwnRoute | undefined {
  const url = req.url ?? '';
  if (isOpenApiRequest(req)) return 'openapi';
  if (isHealthRequest(req)) return 'health';
  if (url.startsWith(ADMIN_PREFIX)) return 'admin';
  if (isInspectorRequest(url)) return 'inspector';
  if (isFaviconRequest(req)) return 'favicon';
  if (url.startsWith(TENANT_PREFIX)) return 'tenant';
  return undefined;
}
