import type { RouteName } from '../schemas/routes.js';
import { routeByName } from '../schemas/routes.js';

/** The path of a route from the spec's table, with `{id}`/`{metric}` filled in (URI-encoded). */
export function routePath(name: RouteName, params: Record<string, string> = {}): string {
  return routeByName(name).path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') throw new Error(`route ${name} needs a value for {${key}}`);
    return encodeURIComponent(value);
  });
}
