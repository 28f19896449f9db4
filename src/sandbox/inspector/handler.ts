/**
 * The web inspector, /_sandbox/ui/…, on the sandbox's own listener. Like the admin route it is no
 * part of the API (not counted, not logged, no faults or rate limits) and is off wherever the admin
 * route is off. The page and its files are open (they hold no data); every data route needs the
 * session a one-time login code was exchanged for (its cookie and its page key, INSPECTOR_KEY_HEADER),
 * and every POST must come from the page's own origin. The clock, scenario and log routes are the
 * admin route's own, reached through the session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InspectorSession } from '../../schemas/inspector.js';
import { INSPECTOR_KEY_HEADER, INSPECTOR_PAGE, INSPECTOR_PATH } from '../../schemas/inspector.js';
import type { AdminRouteName } from '../../schemas/routes.js';
import { matchAdminRoute } from '../../schemas/routes.js';
import { ADMIN_PREFIX, adminDisabled, adminFailure, customerKeyRefused, readBody, routeAdmin } from '../admin.js';
import { recognises } from '../auth.js';
import { dataBody } from '../envelope.js';
import { SandboxError } from '../errors.js';
import type { InspectorAccess } from './access.js';
import { SESSION_TTL_MS } from './access.js';
import { ASSET_TYPES, PAGE_HTML, asset } from './assets.js';
import type { ViewDeps } from './views.js';
import * as views from './views.js';

const PAGE = INSPECTOR_PAGE;
const API = `${PAGE}api/`;

export interface InspectorDeps extends ViewDeps {
  access: InspectorAccess;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  type?: string;
  body: string | Buffer;
}

/** Sent with every answer: nothing cached, nothing but the page's own files run, never framed. */
export const INSPECTOR_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const LOGIN_HINT = 'open the login link `parcels sandbox serve` printed, or get a new one with `parcels sandbox ui`';

/** The session cookie's name: one per port, so two sandboxes on one host keep their own sessions. */
export function cookieName(req: IncomingMessage): string {
  return `parcels_inspector_${req.socket.localPort ?? 0}`;
}

function cookies(req: IncomingMessage, name: string): string[] {
  const found: string[] = [];
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) found.push(pair.slice(eq + 1).trim());
  }
  return found;
}

/** A session (its cookie and its page key), or no entry: a customer key is named as such, anything else asked to log in. */
function authorise(req: IncomingMessage, d: InspectorDeps): void {
  const pageKey = req.headers[INSPECTOR_KEY_HEADER.toLowerCase()];
  if (d.access.admits(cookies(req, cookieName(req)), typeof pageKey === 'string' ? pageKey : undefined)) return;
  if (req.headers.authorization !== undefined && recognises(d.keys, req.headers.authorization)) throw customerKeyRefused('inspector', LOGIN_HINT);
  throw new SandboxError(401, 'login_required', `the inspector needs a session: ${LOGIN_HINT}`);
}

/** A write is taken only from the page's own origin (SameSite=Strict alone would let another port of the same host through). */
function sameOrigin(req: IncomingMessage): void {
  const { origin, host } = req.headers;
  const site = req.headers['sec-fetch-site'];
  if (origin === undefined || host === undefined || origin !== `http://${host}` || (site !== undefined && site !== 'same-origin')) {
    throw new SandboxError(403, 'cross_origin_refused', 'inspector writes are accepted only from the inspector page itself (same origin)');
  }
}

const json = (status: number, data: unknown): Answer => ({ status, body: dataBody(data) });

async function login(req: IncomingMessage, d: InspectorDeps): Promise<Answer> {
  sameOrigin(req);
  const code = (await readBody(req)).code;
  const session = typeof code === 'string' ? d.access.redeem(code) : undefined;
  if (session === undefined) throw new SandboxError(401, 'invalid_login_code', `the login code is unknown, used or expired: ${LOGIN_HINT}`, 'code');
  const cookie = `${cookieName(req)}=${session.cookie}; Path=${PAGE}; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}`;
  const answer: InspectorSession = { page_key: session.pageKey, expires_in_s: SESSION_TTL_MS / 1000 };
  return { ...json(201, answer), headers: { 'Set-Cookie': cookie } };
}

/** The admin routes the page uses (the admin table, src/schemas/routes.ts); anything else under /api/ is the inspector's own. */
const PAGE_ADMIN_ROUTES = new Set<AdminRouteName>(['sandbox.clock.get', 'sandbox.clock.move', 'sandbox.logs.list', 'sandbox.scenario.get', 'sandbox.scenario.assign']);

async function api(req: IncomingMessage, rest: string, query: URLSearchParams, d: InspectorDeps): Promise<Answer> {
  authorise(req, d);
  const method = req.method ?? 'GET';
  if (method !== 'GET') sameOrigin(req);
  const admin = matchAdminRoute(method, ADMIN_PREFIX + rest);
  if (admin.route !== undefined && PAGE_ADMIN_ROUTES.has(admin.route.name)) {
    const { status, data } = await routeAdmin(req, ADMIN_PREFIX + rest, query, d);
    return json(status, data);
  }
  const call = `${method} ${rest}`;
  if (call === 'GET overview') return json(200, views.overview(d));
  if (call === 'GET parcels') return json(200, views.parcels(d, query));
  if (call === 'GET scenarios') return json(200, views.scenarios(d));
  if (call === 'GET usage') return json(200, views.usage(d));
  const one = /^GET parcels\/([^/]+)$/.exec(call);
  if (one !== null) return json(200, views.parcel(d, one[1] as string));
  throw new SandboxError(404, 'route_not_found', `no inspector route ${method} ${API}${rest}`);
}

async function route(req: IncomingMessage, d: InspectorDeps): Promise<Answer> {
  if (d.token() === undefined) throw adminDisabled();
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';
  if (path.startsWith(API)) return api(req, path.slice(API.length), new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), d);
  if (path === INSPECTOR_PATH && method === 'GET') return { status: 308, headers: { Location: PAGE }, body: '' };
  if (path === `${PAGE}session` && method === 'POST') return login(req, d);
  if (path === PAGE && method === 'GET') return { status: 200, type: 'text/html; charset=utf-8', body: PAGE_HTML };
  const name = path.slice(PAGE.length);
  const type = path.startsWith(PAGE) && method === 'GET' ? ASSET_TYPES.get(name) : undefined;
  if (type !== undefined) {
    const bytes = asset(name);
    if (bytes === undefined) throw new SandboxError(404, 'inspector_not_built', 'the inspector page is not built: run `npm run build` in the parcels checkout');
    return { status: 200, type, body: bytes };
  }
  throw new SandboxError(404, 'route_not_found', `no inspector route ${method} ${path}`);
}

function write(res: ServerResponse, answer: Answer): void {
  if (res.destroyed || res.headersSent) return;
  const headers = { ...INSPECTOR_HEADERS, ...answer.headers, 'Content-Type': answer.type ?? 'application/json', 'Content-Length': String(Buffer.byteLength(answer.body)) };
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** Answers one inspector request; never rejects. */
export async function handleInspector(req: IncomingMessage, res: ServerResponse, d: InspectorDeps): Promise<void> {
  let answer: Answer;
  try {
    answer = await route(req, d);
  } catch (err) {
    const failed = adminFailure(err);
    answer = { status: failed.status, headers: failed.headers, body: failed.body };
  }
  try {
    write(res, answer);
  } catch (err) {
    if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
    res.destroy();
  }
}

/** Whether a request is the inspector's. */
export function isInspectorRequest(url: string | undefined): boolean {
  return url !== undefined && (url === INSPECTOR_PATH || url.startsWith(PAGE) || url.startsWith(`${INSPECTOR_PATH}?`));
}
