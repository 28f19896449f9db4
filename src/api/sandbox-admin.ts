import type { ApiClient, ApiResponse } from './http.js';

/**
 * The sandbox's admin route (/_sandbox/v1/…, docs/sandbox.md): its test clock, scenarios and
 * request log. Not part of the API: the client sends the sandbox's admin token, never a customer key.
 */
const PREFIX = '/_sandbox/v1';

export type ClockAction = 'advance' | 'set' | 'freeze' | 'resume' | 'speed';

export function getSandboxClock(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: `${PREFIX}/clock`, signal });
}

/** POST /_sandbox/v1/clock/{action}: `{"by": "36h"}`, `{"to": "…"}`, `{"speed": n}` or `{}`. */
export function moveSandboxClock(client: ApiClient, action: ClockAction, body: Record<string, unknown>, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: `${PREFIX}/clock/${action}`, body, signal });
}

export function getParcelScenario(client: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'GET', path: `${PREFIX}/parcels/${encodeURIComponent(id)}/scenario`, signal });
}

export function assignParcelScenario(client: ApiClient, id: string, scenario: string, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: `${PREFIX}/parcels/${encodeURIComponent(id)}/scenario`, body: { scenario }, signal });
}

/**
 * GET /_sandbox/v1/logs: entries after `after`; with `waitMs` the answer waits up to that long for a
 * new one. A follower always sends `wait` (0 for its first page): a stopping sandbox waits for it.
 */
export function getSandboxLogs(client: ApiClient, opts: { after: number; waitMs: number | undefined; bodies: boolean }, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({
    method: 'GET',
    path: `${PREFIX}/logs`,
    query: { after: opts.after, wait: opts.waitMs, bodies: opts.bodies ? 'true' : undefined },
    signal,
  });
}

/** POST /_sandbox/v1/ui/login: a fresh one-time login link of the web inspector, `{path, expires_in_s}`. */
export function createInspectorLogin(client: ApiClient, signal?: AbortSignal): Promise<ApiResponse> {
  return client.request({ method: 'POST', path: `${PREFIX}/ui/login`, body: {}, signal });
}
