import type { SandboxResponse } from './envelope.js';
import { errorResponse } from './envelope.js';
import { SandboxError } from './errors.js';
import type { Repository } from './store/types.js';

/** Stored idempotent responses are replayed for 24 hours. */
export const IDEMPOTENCY_RETENTION_S = 24 * 60 * 60;

/**
 * Idempotent execution: the lookup, the handler's writes and the stored response happen in one
 * transaction under the write lock (BEGIN IMMEDIATE, or a savepoint of the group's), so duplicates
 * (in this process or another) cannot both run. Only
 * 2xx answers are stored; a 4xx leaves the key unused so a corrected retry runs.
 */
export function idempotentStep(
  repo: Repository,
  orgId: string,
  key: string,
  fingerprint: { method: string; url: string; bodyHash: string },
  now: number,
  execute: () => SandboxResponse,
): SandboxResponse {
  return repo.transaction(() => {
    const existing = repo.getIdempotency(orgId, key);
    if (existing && existing.createdAt > now - IDEMPOTENCY_RETENTION_S) {
      if (existing.method !== fingerprint.method || existing.url !== fingerprint.url) {
        throw new SandboxError(409, 'idempotency_key_reused', `this Idempotency-Key was already used for ${existing.method} ${existing.url}; use a new key`, 'Idempotency-Key');
      }
      if (existing.bodyHash !== fingerprint.bodyHash) {
        throw new SandboxError(409, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different body; use a new key', 'Idempotency-Key');
      }
      const r = existing.response;
      return { status: r.status, headers: { ...r.headers, 'Idempotent-Replayed': 'true' }, body: r.body };
    }
    let response: SandboxResponse;
    try {
      response = execute();
    } catch (err) {
      if (err instanceof SandboxError && err.status < 500) return errorResponse(err);
      throw err;
    }
    if (response.status >= 200 && response.status < 300) {
      repo.putIdempotency(orgId, key, { ...fingerprint, response, createdAt: now });
    }
    return response;
  });
}

