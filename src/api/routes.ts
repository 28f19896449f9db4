import type { AdminRouteName, RouteName } from '../schemas/routes.js';
import { anyRouteByName } from '../schemas/routes.js';

/** The path of a route from the spec's table (or the sandbox's admin table), with `{id}`/`{metric}`/`{action}` filled in (URI-encoded). */
export function routePath(name: RouteName | AdminRouteName, params: Record<string, string> = {}): string {
  return anyRouteByName(name).path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') throw new Error(`route ${name} needs a value for {${key}}`);
    return encodeURIComponent(value);
  });
}
