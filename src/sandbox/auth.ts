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

/** What a presented key grants: its caller, until its expiry. */
export interface KeyGrant {
  expiresAt: number | null;
  caller: Caller;
}

/** Finds the key of an Authorization header; throws 401 for a missing, malformed or unknown key. */
export interface KeyLookup {
  lookup(header: string | undefined): KeyGrant;
}

interface KeyEntry extends KeyGrant {
  hash: Buffer;
}

const WWW_AUTHENTICATE = 'Bearer realm="parcels-sandbox"';

/**
 * API keys by SHA-256 hash. Only hashes are stored; the lookup is by the hash of the presented
 * key, and the match is confirmed with a constant-time comparison of the two hashes.
 */
export class KeyRing implements KeyLookup {
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

  lookup(header: string | undefined): KeyGrant {
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

/** Resolves `Authorization: Bearer <key>`; throws 401 for a missing, unknown or expired key. */
export function authenticate(keys: KeyLookup, header: string | undefined, now: number): Caller {
  const grant = keys.lookup(header);
  if (grant.expiresAt !== null && grant.expiresAt <= now) throw unauthorized('expired_credentials', 'the API key has expired');
  return grant.caller;
}

/** Whether the header carries a customer key known to `keys`, whatever its expiry. */
export function recognises(keys: KeyLookup, header: string | undefined): boolean {
  try {
    keys.lookup(header);
    return true;
  } catch {
    return false;
  }
}

function unauthorized(code: string, message: string): SandboxError {
  const error = code === 'missing_credentials' ? '' : ', error="invalid_token"';
  return new SandboxError(401, code, message, undefined, undefined, { 'WWW-Authenticate': WWW_AUTHENTICATE + error });
}
