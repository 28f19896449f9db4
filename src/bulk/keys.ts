import { createHash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { canonicalJson } from '../schemas/canonical-json.js';

// The one canonical JSON lives in schemas/; bulk's modules take it from here with the keys it makes.
export { canonicalJson };

/**
 * The Idempotency-Keys of bulk lines. A line's key depends on its batch and on the request it
 * builds, never on where it is in the file: editing, inserting or appending lines changes the keys
 * of the changed lines only.
 */

/** SHA-256 of a file's bytes. `signal` stops the reading (AbortError). */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const digest = createHash('sha256');
  for await (const chunk of createReadStream(path, signal === undefined ? {} : { signal })) digest.update(chunk as Buffer);
  return digest.digest('hex');
}

/** What a line asks for: the method, the path and the normalised fields, flags included (a defaulted time is not). */
export function requestDigest(method: string, path: string, fields: Readonly<Record<string, unknown>>): string {
  return hash('sha256', `${method} ${path}\0${canonicalJson(fields)}`, 'base64url');
}

/**
 * The Idempotency-Key of the `occurrence`th (0-based) request of this digest in a batch: two
 * identical lines stay two requests. 46 ASCII bytes.
 */
export function requestKey(kind: string, batch: string, digest: string, occurrence: number): string {
  return `bulk-${hash('sha256', `${kind}\0${batch}\0${digest}\0${occurrence}`, 'base64url').slice(0, 41)}`;
}

/**
 * The key the released version (journal version 1) gave a line: from its batch (the SHA-256 of the
 * whole input, or --batch-id), its line number and its exact bytes. Only to resume such a journal.
 */
export function legacyLineKey(batch: string, line: number, bytes: Uint8Array): string {
  const digest = hash('sha256', Buffer.concat([Buffer.from(`${batch}\0${line}\0`), bytes]), 'base64url');
  return `bulk-${digest.slice(0, 41)}`;
}
