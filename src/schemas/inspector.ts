/**
 * The sandbox's web inspector as its server and its browser page both know it (docs/sandbox.md, "The
 * web inspector"): where it lives, how a request proves its session, and what its own data routes
 * answer (the admin route's answers are in sandbox-admin.ts). No zod: the page bundles what it imports.
 */
import type { ClockStatus, ScenarioRunView } from './sandbox-admin.js';

export const INSPECTOR_PATH = '/_sandbox/ui';
/** The page itself; its files, session and data routes are below it. */
export const INSPECTOR_PAGE = `${INSPECTOR_PATH}/`;

/** A login code or a session secret: base64url of 24 random bytes. */
export const INSPECTOR_SECRET = /^[A-Za-z0-9_-]{32}$/;

/** The page's path with a login code in its fragment (a fragment is never sent, so never logged). */
export function inspectorLoginPath(code: string): string {
  return `${INSPECTOR_PAGE}#code=${code}`;
}

/** Whether a path is a login link as the sandbox makes them: the page, a code in the fragment, nothing else. */
export function isInspectorLoginPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith(`${INSPECTOR_PAGE}#code=`) && INSPECTOR_SECRET.test(path.slice(`${INSPECTOR_PAGE}#code=`.length));
}

/**
 * The header with which every data request proves it comes from the page of the sandbox's own
 * origin: the session's page key, which the login answer gives the page and the page keeps in its
 * origin's storage. The session cookie reaches every port of the host; this key does not.
 */
export const INSPECTOR_KEY_HEADER = 'Parcels-Inspector-Key';

/** `POST /_sandbox/ui/session`'s answer: the page key for INSPECTOR_KEY_HEADER (the cookie comes with it). */
export interface InspectorSession {
  page_key: string;
  expires_in_s: number;
}

export interface Code {
  code: number;
  name: string;
}

/** `GET overview`: organisations and their couriers (the filters), the code names, and the test clock. */
export interface Overview {
  organisations: Array<{ id: string; name: string; verified: boolean; couriers: Array<{ code: string; name: string }> }>;
  reference: { statuses: readonly Code[]; outcomes: readonly Code[]; reasons: readonly Code[]; location_types: readonly Code[]; service_types: readonly Code[] };
  clock: ClockStatus;
}

/** A parcel as the API shows it, with its organisation (and, in a list, its scenario's name). */
export interface InspectedParcel {
  entry_id: string;
  org_id: string;
  courier: string;
  country: string;
  postal_code: string;
  number: string;
  addition: string | null;
  status: number;
  created_at: number;
  updated_at: number;
  scenario?: string | null;
  [field: string]: unknown;
}

/** `GET parcels?…`: a page, newest first; `next_before` continues the walk (null on the last page). */
export interface ParcelPage {
  parcels: InspectedParcel[];
  next_before: number | null;
}

/** `GET parcels/{id}`: the parcel, its events and attempts as the API lists them, and its scenario run. */
export interface ParcelDetail {
  parcel: InspectedParcel;
  events: unknown[];
  attempts: unknown[];
  scenario: ScenarioRunView | null;
}

/** One step of a scenario as written: a delay, then a report or a seeded choice between branches. */
export type ScenarioStepView =
  | { after: number; lateBy: number; event: number }
  | { after: number; lateBy: number; attempt: { outcome: number; reason: number } }
  | { after: number; branch: Array<{ weight: number; steps: ScenarioStepView[] }> };

/** A scenario with its steps as written, built-in ones marked. */
export interface ScenarioView {
  name: string;
  description: string;
  builtin: boolean;
  steps: ScenarioStepView[];
}

/** `GET scenarios`: every scenario the sandbox knows. */
export interface ScenarioCatalogueView {
  scenarios: ScenarioView[];
}

/** `GET usage`: requests and errors per organisation and UTC day. */
export interface UsageReport {
  organisations: Array<{ id: string; name: string; days: Array<{ date: string; requests: number; errors: number }> }>;
}
