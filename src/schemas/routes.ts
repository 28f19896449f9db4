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

/** A route's path template by segment: a literal to compare, or the name of a parameter ({id}). */
type Segment = { literal: string } | { param: string };
const TEMPLATES: ReadonlyArray<readonly [RouteSpec, readonly Segment[]]> = ROUTES.map(
  (r) => [r, r.path.split('/').map((t) => (t.startsWith('{') ? { param: t.slice(1, -1) } : { literal: t }))] as const,
);

/** Matches a method and a path (no query string) against the route table. */
export function matchRoute(method: string, path: string): RouteMatch | { route: undefined; pathKnown: boolean } {
  const segments = path.split('/');
  let pathKnown = false;
  for (const [route, template] of TEMPLATES) {
    if (template.length !== segments.length || !fits(template, segments)) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < template.length; i++) {
      const t = template[i] as Segment;
      if ('param' in t) params[t.param] = segments[i] as string;
    }
    return { route, params };
  }
  return { route: undefined, pathKnown };
}

function fits(template: readonly Segment[], segments: readonly string[]): boolean {
  for (let i = 0; i < template.length; i++) {
    const t = template[i] as Segment;
    const s = segments[i] as string;
    if ('param' in t ? s === '' : t.literal !== s) return false;
  }
  return true;
}
