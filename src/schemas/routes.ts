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

/**
 * The sandbox's admin route (docs/sandbox.md): no part of the API, answered only by the sandbox,
 * with its admin token (never a customer key); `sandbox.proof` is asked without credentials.
 */
export type AdminRouteName =
  | 'sandbox.clock.get'
  | 'sandbox.clock.move'
  | 'sandbox.scenarios.list'
  | 'sandbox.scenario.get'
  | 'sandbox.scenario.assign'
  | 'sandbox.logs.list'
  | 'sandbox.inspector.login'
  | 'sandbox.faults.list'
  | 'sandbox.faults.add'
  | 'sandbox.faults.clear'
  | 'sandbox.fault.remove'
  | 'sandbox.faults.rates'
  | 'sandbox.proof'
  | 'sandbox.reset'
  | 'sandbox.tenants.create'
  | 'sandbox.tenants.list'
  | 'sandbox.tenants.remove';

export interface AdminRouteSpec {
  readonly name: AdminRouteName;
  readonly method: Method | 'PUT' | 'DELETE';
  /** Path template; `{action}`, `{id}` and `{name}` are single path segments. */
  readonly path: string;
}

/** Every admin route's path starts so. */
export const ADMIN_PREFIX = '/_sandbox/v1/';

export const ADMIN_ROUTES: readonly AdminRouteSpec[] = [
  { name: 'sandbox.clock.get', method: 'GET', path: '/_sandbox/v1/clock' },
  { name: 'sandbox.clock.move', method: 'POST', path: '/_sandbox/v1/clock/{action}' },
  { name: 'sandbox.scenarios.list', method: 'GET', path: '/_sandbox/v1/scenarios' },
  { name: 'sandbox.scenario.get', method: 'GET', path: '/_sandbox/v1/parcels/{id}/scenario' },
  { name: 'sandbox.scenario.assign', method: 'POST', path: '/_sandbox/v1/parcels/{id}/scenario' },
  { name: 'sandbox.logs.list', method: 'GET', path: '/_sandbox/v1/logs' },
  { name: 'sandbox.inspector.login', method: 'POST', path: '/_sandbox/v1/ui/login' },
  { name: 'sandbox.faults.list', method: 'GET', path: '/_sandbox/v1/faults' },
  { name: 'sandbox.faults.add', method: 'POST', path: '/_sandbox/v1/faults' },
  { name: 'sandbox.faults.clear', method: 'DELETE', path: '/_sandbox/v1/faults' },
  { name: 'sandbox.fault.remove', method: 'DELETE', path: '/_sandbox/v1/faults/{id}' },
  { name: 'sandbox.faults.rates', method: 'PUT', path: '/_sandbox/v1/faults/rates' },
  { name: 'sandbox.proof', method: 'GET', path: '/_sandbox/v1/proof' },
  { name: 'sandbox.reset', method: 'POST', path: '/_sandbox/v1/reset' },
  { name: 'sandbox.tenants.create', method: 'POST', path: '/_sandbox/v1/tenants' },
  { name: 'sandbox.tenants.list', method: 'GET', path: '/_sandbox/v1/tenants' },
  { name: 'sandbox.tenants.remove', method: 'DELETE', path: '/_sandbox/v1/tenants/{name}' },
];

/** A route of either table by its name. */
export function anyRouteByName(name: RouteName | AdminRouteName): RouteSpec | AdminRouteSpec {
  const route = name.startsWith('sandbox.') ? ADMIN_ROUTES.find((r) => r.name === name) : ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route;
}

export interface RouteMatch<R = RouteSpec> {
  route: R;
  params: Record<string, string>;
}

export type RouteMatcher<R> = (method: string, path: string) => RouteMatch<R> | { route: undefined; pathKnown: boolean };

/**
 * A route's path template by segment: a literal to compare, or the name of a parameter ({id}).
 * One object shape for both (`param` is "" for a literal), and the templates grouped by segment
 * count: matching runs on every request the sandbox serves.
 */
interface Segment {
  readonly literal: string;
  readonly param: string;
}
interface Template<R> {
  readonly route: R;
  readonly segments: readonly Segment[];
}

/** Matches a method and a path (no query string) against `routes`; `pathKnown` when only the method is wrong. */
export function routeMatcher<R extends { readonly method: string; readonly path: string }>(routes: readonly R[]): RouteMatcher<R> {
  const byLength = new Map<number, Template<R>[]>();
  for (const route of routes) {
    const segments = route.path.split('/').map((t): Segment => (t.startsWith('{') ? { literal: '', param: t.slice(1, -1) } : { literal: t, param: '' }));
    const sameLength = byLength.get(segments.length) ?? [];
    sameLength.push({ route, segments });
    byLength.set(segments.length, sameLength);
  }
  return (method, path) => {
    const parts = path.split('/');
    const candidates = byLength.get(parts.length);
    let pathKnown = false;
    if (candidates === undefined) return { route: undefined, pathKnown };
    for (let c = 0; c < candidates.length; c++) {
      const { route, segments } = candidates[c] as Template<R>;
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
  };
}

function fits(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const t = segments[i] as Segment;
    const s = parts[i] as string;
    if (t.param !== '' ? s === '' : t.literal !== s) return false;
  }
  return true;
}

/** Matches a method and a path (no query string) against the route table. */
export const matchRoute: RouteMatcher<RouteSpec> = routeMatcher(ROUTES);

/** Matches a method and a path (no query string) against the admin route table. */
export const matchAdminRoute: RouteMatcher<AdminRouteSpec> = routeMatcher(ADMIN_ROUTES);
