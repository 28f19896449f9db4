import { createHash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The batch identity of an input file: a SHA-256 of its whole content. `signal` stops the reading (AbortError). */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, signal === undefined ? {} : { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The Idempotency-Key of one input line: from the batch identity, the line number and the line's
 * exact bytes, never from the base URL (which changes for an in-process sandbox). 46 ASCII bytes.
 */
export function lineKey(batch: string, line: number, bytes: Uint8Array): string {
  // SHA-256 of `batch \0 line \0 bytes`, in one call (one hash object per line costs more than the hashing).
  const digest = hash('sha256', Buffer.concat([Buffer.from(`${batch}\0${line}\0`), bytes]), 'base64url');
  return `bulk-${digest.slice(0, 41)}`;
}
