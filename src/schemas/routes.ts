export type Scope = 'deliveries:read' | 'deliveries:write' | 'usage:read' | 'oracle:read';

export type Method = 'GET' | 'POST' | 'PATCH';

export interface RouteSpec {
  /** Stable name used by the sandbox's handler table and the CLI's error hints. */
  readonly name: RouteName;
  readonly method: Method;
  /** Path template; `{id}` and `{metric}` are single path segments. */
  readonly path: string;
  readonly scope: Scope;
  /** Success status. */
  readonly status: 200 | 201;
  /** The route requires an Idempotency-Key header. */
  readonly idempotent: boolean;
}

export type RouteName =
  | 'couriers.list'
  | 'overview.get'
  | 'usage.daily'
  | 'usage.requests'
  | 'parcels.list'
  | 'parcels.create'
  | 'parcels.get'
  | 'parcels.patch'
  | 'events.list'
  | 'events.create'
  | 'attempts.list'
  | 'attempts.create'
  | 'address.validate'
  | 'reference.get'
  | 'oracle.get';

/** The prefix of the delivery routes (the account routes have their own, `/account/v1`). */
export const API_PREFIX = '/deliveries/v1';

/** The spec's section 4 route table: the 15 routes, their scopes and success statuses. */
export const ROUTES: readonly RouteSpec[] = [
  { name: 'couriers.list', method: 'GET', path: '/account/v1/couriers', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'overview.get', method: 'GET', path: '/account/v1/overview', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'usage.daily', method: 'GET', path: '/account/v1/usage', scope: 'usage:read', status: 200, idempotent: false },
  { name: 'usage.requests', method: 'GET', path: '/account/v1/usage/requests', scope: 'usage:read', status: 200, idempotent: false },
  { name: 'parcels.list', method: 'GET', path: '/deliveries/v1/parcels', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'parcels.create', method: 'POST', path: '/deliveries/v1/parcels', scope: 'deliveries:write', status: 201, idempotent: true },
  { name: 'parcels.get', method: 'GET', path: '/deliveries/v1/parcels/{id}', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'parcels.patch', method: 'PATCH', path: '/deliveries/v1/parcels/{id}', scope: 'deliveries:write', status: 200, idempotent: false },
  { name: 'events.list', method: 'GET', path: '/deliveries/v1/parcels/{id}/events', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'events.create', method: 'POST', path: '/deliveries/v1/parcels/{id}/events', scope: 'deliveries:write', status: 201, idempotent: true },
  { name: 'attempts.list', method: 'GET', path: '/deliveries/v1/parcels/{id}/attempts', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'attempts.create', method: 'POST', path: '/deliveries/v1/parcels/{id}/attempts', scope: 'deliveries:write', status: 201, idempotent: true },
  { name: 'address.validate', method: 'POST', path: '/deliveries/v1/address/validate', scope: 'deliveries:write', status: 200, idempotent: false },
  { name: 'reference.get', method: 'GET', path: '/deliveries/v1/reference', scope: 'deliveries:read', status: 200, idempotent: false },
  { name: 'oracle.get', method: 'GET', path: '/deliveries/v1/oracle/{metric}', scope: 'oracle:read', status: 200, idempotent: false },
];

export function routeByName(name: RouteName): RouteSpec {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route;
}

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

/**
 * A route's path template by segment: a literal to compare, or the name of a parameter ({id}).
 * One object shape for both (`param` is "" for a literal), and the templates grouped by segment
 * count: matching runs on every request the sandbox serves.
 */
interface Segment {
  readonly literal: string;
  readonly param: string;
}
interface Template {
  readonly route: RouteSpec;
  readonly segments: readonly Segment[];
}
const TEMPLATES_BY_LENGTH = new Map<number, Template[]>();
for (const route of ROUTES) {
  const segments = route.path.split('/').map((t): Segment => (t.startsWith('{') ? { literal: '', param: t.slice(1, -1) } : { literal: t, param: '' }));
  const sameLength = TEMPLATES_BY_LENGTH.get(segments.length) ?? [];
  sameLength.push({ route, segments });
  TEMPLATES_BY_LENGTH.set(segments.length, sameLength);
}

/** Matches a method and a path (no query string) against the route table. */
export function matchRoute(method: string, path: string): RouteMatch | { route: undefined; pathKnown: boolean } {
  const parts = path.split('/');
  const candidates = TEMPLATES_BY_LENGTH.get(parts.length);
  let pathKnown = false;
  if (candidates === undefined) return { route: undefined, pathKnown };
  for (let c = 0; c < candidates.length; c++) {
    const { route, segments } = candidates[c] as Template;
    if (!fits(segments, parts)) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const param = (segments[i] as Segment).param;
      if (param !== '') params[param] = parts[i] as string;
    }
    return { route, params };
  }
  return { route: undefined, pathKnown };
}

function fits(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const t = segments[i] as Segment;
    const s = parts[i] as string;
    if (t.param !== '' ? s === '' : t.literal !== s) return false;
  }
  return true;
}
