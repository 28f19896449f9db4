import { resolve } from 'node:path';

/**
 * What a per-target cache (ETags, reference names) is keyed by: the service a command talks to.
 * A base URL is one target (scheme, host, port and path); `--sandbox` is its database file, since
 * its port is new on every run while its data persists.
 */
export type Target = { baseUrl: string } | { sandboxDb: string };

/** A short, file-name-safe id of a target: `api-<hash>` or `sandbox-<hash>`. */
export function targetId(target: Target): string {
  const { kind, identity } = targetIdentity(target);
  // Loaded here, not at the top: shell completion needs a target id only for a few value lists.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `${kind}-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
}

/** What a target id is the hash of: `kind` and the resolved database path or the canonical base URL. */
export function targetIdentity(target: Target): { kind: 'api' | 'sandbox'; identity: string } {
  return 'sandboxDb' in target ? { kind: 'sandbox', identity: resolve(target.sandboxDb) } : { kind: 'api', identity: canonicalUrl(target.baseUrl) };
}

/** The shape of every id `targetId` returns. */
export const TARGET_ID = /^(api|sandbox)-[0-9a-f]{16}$/;

/** `HTTPS://Api.Example.com:443/v1/` and `https://api.example.com/v1` are one target. */
function canonicalUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}
