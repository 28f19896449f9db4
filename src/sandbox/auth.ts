import { timingSafeEqual } from 'node:crypto';
import type { Scope } from '../schemas/routes.js';
import { SandboxError } from './errors.js';
import { sha256 } from './hash.js';
import type { CourierRecord, KeyRecord, OrgRecord } from './store/types.js';
import type { RateLimitSpec } from './seed.js';

/** An organisation as the request pipeline needs it, loaded once at start. */
export interface OrgState {
  id: string;
  name: string;
  verified: boolean;
  rateLimit: RateLimitSpec | null;
  couriers: CourierRecord[];
  courierCodes: ReadonlySet<string>;
}

export interface Caller {
  org: OrgState;
  scopes: ReadonlySet<Scope>;
}

interface KeyEntry {
  hash: Buffer;
  expiresAt: number | null;
  caller: Caller;
}

const WWW_AUTHENTICATE = 'Bearer realm="parcels-sandbox"';

/**
 * API keys by SHA-256 hash. Only hashes are stored; the lookup is by the hash of the presented
 * key, and the match is confirmed with a constant-time comparison of the two hashes.
 */
export class KeyRing {
  private readonly byHash = new Map<string, KeyEntry>();

  constructor(orgs: readonly OrgRecord[], keys: readonly KeyRecord[]) {
    const orgById = new Map<string, OrgState>();
    for (const o of orgs) orgById.set(o.id, { ...o, courierCodes: new Set(o.couriers.map((c) => c.code)) });
    for (const k of keys) {
      const org = orgById.get(k.orgId);
      if (!org) continue;
      this.byHash.set(k.hash.toString('hex'), { hash: k.hash, expiresAt: k.expiresAt, caller: { org, scopes: new Set(k.scopes) } });
    }
  }

  /** Resolves `Authorization: Bearer <key>`; throws 401 for a missing, unknown or expired key. */
  authenticate(header: string | undefined, now: number): Caller {
    const entry = this.lookup(header);
    if (entry.expiresAt !== null && entry.expiresAt <= now) throw unauthorized('expired_credentials', 'the API key has expired');
    return entry.caller;
  }

  /** Whether the header carries a key of this key ring (a customer key), whatever its expiry. */
  recognises(header: string | undefined): boolean {
    try {
      this.lookup(header);
      return true;
    } catch {
      return false;
    }
  }

  private lookup(header: string | undefined): KeyEntry {
    if (header === undefined || header === '') {
      throw unauthorized('missing_credentials', 'send the header Authorization: Bearer <API key>');
    }
    const match = /^Bearer +([^\s]+) *$/i.exec(header);
    if (!match) throw unauthorized('invalid_credentials', 'the Authorization header must be "Bearer <API key>"');
    const presented = sha256(match[1] as string);
    const entry = this.byHash.get(presented.toString('hex'));
    if (!entry || !timingSafeEqual(entry.hash, presented)) throw unauthorized('invalid_credentials', 'the API key is not valid');
    return entry;
  }
}

function unauthorized(code: string, message: string): SandboxError {
  const error = code === 'missing_credentials' ? '' : ', error="invalid_token"';
  return new SandboxError(401, code, message, undefined, undefined, { 'WWW-Authenticate': WWW_AUTHENTICATE + error });
}
