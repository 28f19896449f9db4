import { dataFlag } from '../../args/flags.js';
import { UsageError } from '../../errors.js';
import { forPeople, presentList } from '../../io/present.js';
import { presentResource } from '../../io/present/resource.js';
import type { Context } from '../../context.js';
import { renderMessage } from '../../io/render.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import type { SandboxAdmin } from '../../sandbox-admin.js';
import { sandboxAdmin } from '../../sandbox-admin.js';
import { isRecord } from '../../schemas/record.js';
import { TENANT_NAME } from '../../schemas/sandbox-admin.js';
import { TENANT_ACTIONS_DESCRIBED } from '../../schemas/scenarios.js';

export type TenantsOptions = { action: 'list' } | { action: 'create'; name: string; seedFile: string | undefined } | { action: 'remove'; name: string };

const ACTIONS = Object.keys(TENANT_ACTIONS_DESCRIBED);

function tenantName(action: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`tenants ${action} needs a name, e.g. parcels sandbox tenants ${action} checkout`, 'NAME');
  if (!TENANT_NAME.test(value)) throw new UsageError(`a tenant's name must be 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (got "${value}")`, 'NAME');
  return value;
}

/** A tenant record with its whole base URL beside its path: the URL other commands take with --base-url. */
function withUrl(tenant: unknown, baseUrl: string): unknown {
  if (!isRecord(tenant) || typeof tenant.path !== 'string') return tenant;
  return { name: tenant.name, url: `${baseUrl.replace(/\/+$/, '')}${tenant.path}`, ...tenant };
}

export default defineCommand<typeof sandboxCommands.sandboxTenants, TenantsOptions>({
  parse({ args, flags }) {
    const [action = 'list', value] = args;
    if (!ACTIONS.includes(action)) throw new UsageError(`unknown tenants action "${action}"; use one of ${ACTIONS.join(', ')}`, 'action');
    if (action !== 'create' && flags.seed !== undefined) throw new UsageError(`--seed goes with tenants create, not tenants ${action}`, '--seed');
    if (action === 'list') {
      if (value !== undefined) throw new UsageError(`tenants list takes no name (got "${value}")`, 'list');
      return { action };
    }
    const name = tenantName(action, value);
    return action === 'create' ? { action, name, seedFile: flags.seed } : { action: 'remove', name };
  },

  async run(options, ctx) {
    const seed = options.action === 'create' && options.seedFile !== undefined ? await dataFlag(`@${options.seedFile}`, ctx, '--seed') : undefined;
    const admin = await sandboxAdmin(ctx);
    try {
      await act(admin, options, seed, ctx);
    } finally {
      await admin.close();
    }
  },
});

async function act(admin: SandboxAdmin, options: TenantsOptions, seed: Record<string, unknown> | undefined, ctx: Context): Promise<void> {
  // The root's URL: tenants are managed on the sandbox itself, and their URLs are built on it.
  const root = admin.baseUrl;
  if (options.action === 'list') {
    const answer = await admin.tenants();
    const tenants = isRecord(answer) && Array.isArray(answer.tenants) ? answer.tenants : [];
    await presentList(ctx, tenants.map((t) => withUrl(t, root)), { now: ctx.now(), emptyMessage: 'No tenants.' });
    return;
  }
  if (options.action === 'create') {
    const tenant = withUrl(await admin.createTenant(options.name, seed), root);
    await presentResource(ctx, tenant);
    if (forPeople(ctx) && isRecord(tenant)) await renderMessage(ctx.io, `Created tenant ${options.name}: give its URL to other commands with --base-url ${String(tenant.url)}`, 'success');
    return;
  }
  const answer = await admin.removeTenant(options.name);
  const removed = isRecord(answer) ? answer.removed : undefined;
  await renderMessage(ctx.io, `Removed tenant ${options.name} and everything in it`, 'success');
  if (!forPeople(ctx)) await presentResource(ctx, withUrl(removed, root));
}
