import { sha256 } from './hash.js';

/** What a key or the admin token is replaced with in the request log. */
export const REDACTED = '[redacted]';

/** A run of the characters keys are usually made of, as long as a key can be (seed.ts: 8 to 256). */
const CANDIDATE = /[A-Za-z0-9._~-]{8,256}/g;

/**
 * Takes every known key and the admin token out of a text the request log keeps (a path, a query,
 * a body): a key sent in a path (`/parcels/<key>`), a query or a body would otherwise be shown by
 * `sandbox logs --bodies`. Keys are found two ways: the clear texts this process knows (its seed's
 * keys and the admin token, also percent-encoded and JSON-escaped), and any key-shaped run whose
 * SHA-256 is a stored key's (keys of earlier seeds, of which the database keeps only the hash).
 */
export class LogRedactor {
  private readonly clear: string[];

  constructor(
    secrets: readonly string[],
    private readonly keyHashes: ReadonlySet<string>,
  ) {
    const forms = secrets.flatMap((s) => [s, encodeURIComponent(s), s.replaceAll('/', '\\/')]);
    // Longest first, so a key inside another is not left half-replaced.
    this.clear = [...new Set(forms)].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  }

  text(input: string): string {
    let out = input;
    for (const secret of this.clear) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out.replace(CANDIDATE, (run) => (this.keyHashes.has(sha256(run).toString('hex')) ? REDACTED : run));
  }
}
