/** One request on a sandbox's admin route (/_sandbox/v1/…), answered as its data or as a TestSandboxError. */
import { ADMIN_PREFIX } from '../schemas/routes.js';
import { inertText } from '../schemas/terminal-text.js';

/** An admin route's error answer (or no answer at all), in the words of the route: its status and code. */
export class TestSandboxError extends Error {
  override readonly name = 'TestSandboxError';
  constructor(
    /** The status answered; undefined when the sandbox could not be reached. */
    readonly status: number | undefined,
    /** The error envelope's code (e.g. `fault_not_found`), or `unreachable`. */
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Where a handle's admin requests go: a sandbox's (or a tenant's) base URL and the admin token. */
export interface AdminTarget {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:54321 or …/t/orders. */
  url: string;
  adminToken: string;
}

type Query = Record<string, string | number | boolean | undefined>;

function queryText(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The envelope's error, if the answer holds one; the server's text made inert (it may be any server). */
function envelopeError(body: unknown): { code: string; message: string } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code: inertText(typeof code === 'string' ? code : 'unknown'), message: inertText(typeof message === 'string' ? message : '') };
}

/**
 * `method` `ADMIN_PREFIX + route` with an optional JSON body; resolves with the envelope's data.
 * Rejects with TestSandboxError: the route's status and code, or `unreachable`.
 */
export async function adminRequest<T>(target: AdminTarget, method: string, route: string, body?: unknown, query: Query = {}): Promise<T> {
  const where = `${method} ${ADMIN_PREFIX}${route}`;
  let response: Response;
  try {
    response = await fetch(`${target.url}${ADMIN_PREFIX}${route}${queryText(query)}`, {
      method,
      headers: { authorization: `Bearer ${target.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new TestSandboxError(undefined, 'unreachable', `the sandbox at ${target.url} did not answer ${where}: ${(err as Error).message}`, { cause: err });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TestSandboxError(response.status, 'not_json', `the sandbox at ${target.url} answered ${where} with ${response.status} and a body that is not JSON: is it a parcels sandbox?`);
  }
  const error = envelopeError(parsed);
  if (!response.ok || error !== undefined) {
    const said = error === undefined ? 'no error envelope' : `${error.code}: ${error.message}`;
    throw new TestSandboxError(response.status, error?.code ?? 'unknown', `the sandbox answered ${where} with ${response.status} ${said}`);
  }
  return (parsed as { data: T }).data;
}
