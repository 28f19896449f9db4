/**
 * The tenant table: whole sandboxes of their own (data, organisations, keys, test clock, faults, rate
 * limits, request log), each served under `/t/<name>` on the listener of the sandbox that holds them.
 * The listener (server.ts) hands a request under a tenant's path, the prefix taken off, to that
 * tenant's app, whose own routes then match as usual. Tenants hold no tenants of their own.
 */
import type { IncomingMessage } from 'node:http';
import type { Tenant } from '../schemas/sandbox-admin.js';
import { MAX_TENANTS, TENANT_NAME, TENANT_PREFIX } from '../schemas/sandbox-admin.js';
import type { SeedObject } from './seed.js';
import { validateSeed } from './seed.js';

/** What the table needs of a tenant's app: to be stopped and closed when the tenant goes. */
export interface TenantApp {
  stopping(): Promise<void>;
  close(): void;
}

export type TenantErrorCode = 'invalid_tenant_name' | 'tenant_exists' | 'tenant_not_found' | 'too_many_tenants';

/** A tenant that cannot be created or found; the admin route answers it with its code. */
export class TenantError extends Error {
  override readonly name = 'TenantError';
  constructor(
    readonly code: TenantErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A request's tenant by its path: `/t/<name>/rest` → the name and `/rest` (`/` for `/t/<name>`); undefined outside `/t/`. */
export function tenantPath(url: string): { name: string; rest: string } | undefined {
  if (!url.startsWith(TENANT_PREFIX)) return undefined;
  const after = url.slice(TENANT_PREFIX.length);
  const end = after.search(/[/?]/);
  const name = end === -1 ? after : after.slice(0, end);
  const rest = end === -1 ? '/' : after[end] === '?' ? `/${after.slice(end)}` : after.slice(end);
  return { name, rest };
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !TENANT_NAME.test(name)) {
    throw new TenantError('invalid_tenant_name', `a tenant's name must be 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (got ${JSON.stringify(name)})`);
  }
  return name;
}

export class TenantTable<A extends TenantApp> {
  private readonly tenants = new Map<string, { app: A; tenant: Tenant }>();
  private closed = false;

  constructor(
    /** Builds a tenant's app from its seed (undefined: the holding sandbox's seed), served under `path`. */
    private readonly build: (seed: SeedObject | undefined, path: string) => A,
    private readonly wallMs: () => number,
  ) {}

  /** Creates a tenant; `seed` is checked as a seed file is (SeedError). */
  create(name: unknown, seed?: unknown): { app: A; tenant: Tenant } {
    // A tenant made after its sandbox closed would never be closed.
    if (this.closed) throw new Error('the sandbox is closed; it takes no new tenants');
    const checked = checkName(name);
    if (this.tenants.has(checked)) throw new TenantError('tenant_exists', `a tenant named "${checked}" exists already; remove it first, or choose another name`);
    if (this.tenants.size >= MAX_TENANTS) throw new TenantError('too_many_tenants', `this sandbox holds ${MAX_TENANTS} tenants, the most it takes; remove one first`);
    const path = `${TENANT_PREFIX}${checked}`;
    const app = this.build(seed === undefined ? undefined : validateSeed(seed, 'tenant seed'), path);
    const entry = { app, tenant: { name: checked, path, created_at: new Date(this.wallMs()).toISOString() } };
    this.tenants.set(checked, entry);
    return entry;
  }

  list(): Tenant[] {
    return [...this.tenants.values()].map((t) => t.tenant);
  }

  get(name: string): { app: A; tenant: Tenant } | undefined {
    return this.tenants.get(name);
  }

  /** Removes a tenant: answers its waiting log followers, then closes its app. */
  async remove(name: string): Promise<Tenant> {
    const entry = this.tenants.get(name);
    if (entry === undefined) throw new TenantError('tenant_not_found', `no tenant named ${JSON.stringify(name)}; GET /_sandbox/v1/tenants lists them`);
    this.tenants.delete(name);
    await entry.app.stopping();
    entry.app.close();
    return entry.tenant;
  }

  /**
   * The tenant app a request under `/t/<name>/…` goes to, its URL rewritten to the path within
   * the tenant; undefined when no tenant has that name (the request is left as it came).
   */
  enter(req: IncomingMessage, at: { name: string; rest: string }): A | undefined {
    const entry = this.tenants.get(at.name);
    if (entry === undefined) return undefined;
    req.url = at.rest;
    return entry.app;
  }

  /** Every tenant starts to stop (the sandbox that holds them stops). */
  stopping(): Promise<void> {
    return Promise.all([...this.tenants.values()].map((t) => t.app.stopping())).then(() => undefined);
  }

  closeAll(): void {
    this.closed = true;
    for (const { app } of this.tenants.values()) app.close();
    this.tenants.clear();
  }
}
