/**
 * The inspector's data routes: same origin, JSON envelopes, and the session: its cookie (sent by the
 * browser) and its page key, kept in this origin's storage and sent as a header. A page on another
 * port of the host receives the cookie too, but cannot read this origin's storage (docs/security.md).
 */
import type { InspectorSession } from '../../schemas/inspector.js';
import { INSPECTOR_KEY_HEADER } from '../../schemas/inspector.js';

/** Where the page key is kept: localStorage is this origin's alone (scheme, host and port), and every tab of it shares it. */
const PAGE_KEY_ITEM = 'parcels-inspector-page-key';

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
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const pageKey = localStorage.getItem(PAGE_KEY_ITEM);
  if (pageKey !== null) headers[INSPECTOR_KEY_HEADER] = pageKey;
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers,
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
/** Exchanges a one-time login code for a session: the cookie comes with the answer, the page key is kept here. */
export async function login(code: string): Promise<void> {
  const session = await call<InspectorSession>('POST', 'session', { code });
  localStorage.setItem(PAGE_KEY_ITEM, session.page_key);
}
