/** The inspector's data routes: same origin, the session cookie, JSON envelopes. */

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let envelope: { data?: T; error?: { code?: string; message?: string } } = {};
  try {
    envelope = (await response.json()) as typeof envelope;
  } catch {
    // A body that is not JSON is reported by its status below.
  }
  if (!response.ok || envelope.data === undefined) {
    throw new ApiFailure(response.status, envelope.error?.code ?? 'http_error', envelope.error?.message ?? `the sandbox answered ${response.status}`);
  }
  return envelope.data;
}

export const get = <T>(path: string): Promise<T> => call<T>('GET', `api/${path}`);
export const post = <T>(path: string, body: unknown = {}): Promise<T> => call<T>('POST', `api/${path}`, body);
/** Exchanges a one-time login code for the session cookie. */
export const login = (code: string): Promise<unknown> => call('POST', 'session', { code });
