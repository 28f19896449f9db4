/** What the one client of the service (./http.ts) is built with and what its callers hand it. */
import type { CredentialSource, DryRunRecorder } from './dry-run.js';
import type { PoolGate } from './core/gate.js';
import type { Sleep } from './core/sleep.js';
import type { ApiRequest } from './request.js';
import type { SkewObservation } from '../clock-skew/policy.js';

/** A request to a route of the spec's table (src/schemas/routes.ts), by name: its method and path come from the table. */
export interface RouteCall extends Omit<ApiRequest, 'method' | 'path'> {
  /** `{id}`, `{metric}`, `{action}` in the route's path. */
  params?: Record<string, string>;
}

/** Shown while requests (with their retries) are under way; see `waitingIndicator` in src/io/spinner.ts. */
export interface WaitingIndicator {
  start(text: string): Promise<void>;
  stop(): Promise<void>;
  notice(line: string): void;
}

export interface ApiClientOptions {
  /** http(s) URL without credentials (settings.ts checks it); a path prefix is kept in front of every route. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** Per attempt: connect, headers and body together. */
  timeoutMs: number;
  /** Extra attempts after the first (0 = no retries). */
  retries: number;
  userAgent: string;
  /** One line per event (request, response, bodies, retry decision). Never receives the key. */
  trace?: ((line: string) => void) | undefined;
  /** Recording mode (--dry-run): requests are recorded here and nothing is sent. */
  dryRun?: DryRunRecorder | undefined;
  /** Where recorded curl lines read the credential from (default: $PARCELS_API_KEY). */
  credential?: CredentialSource | undefined;
  waiting?: WaitingIndicator | undefined;
  /** Cancels every request of this client (e.g. aborted on SIGINT with a CancelledError reason). */
  signal?: AbortSignal | undefined;
  sleep?: Sleep;
  /** Epoch milliseconds; drives the clock-skew measurement (and the gate, with `sleep`, when either is given). */
  now?: () => number;
  /** Told the skew (service clock minus ours, seconds) measured from every answer's Date header, and whether that answer is fresh and from a test clock. */
  onSkew?: ((observation: SkewObservation) => void) | undefined;
  /** In [0, 1); used for the backoff jitter. */
  random?: () => number;
  /** Maximum parallel connections to the service (default 16). */
  connections?: number;
  /** Largest single response body accepted (default 32 MiB); list walks are page by page. */
  maxResponseBytes?: number;
  /** Admission (pauses, pace) shared by every request (default: the process's gate for the service; one of its own when `sleep` or `now` is given). */
  gate?: PoolGate;
}
