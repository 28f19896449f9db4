import { decodeKeyText } from '../schemas/key-text.js';
import { sha256 } from './hash.js';

/** What a key or the admin token is replaced with in the request log. */
export const REDACTED = '[redacted]';

/** A run of the characters keys are usually made of, as long as a key can be (seed.ts: 8 to 256). */
const CANDIDATE = /[A-Za-z0-9._~-]{8,256}/g;

/**
 * Takes every known key and the admin token out of a text the request log keeps (a path, a query,
 * a header value, a body): a key sent there would otherwise be shown by `sandbox logs --bodies`.
 * Keys are found two ways: the clear texts this process knows (its seed's keys and the admin
 * token), and any key-shaped run whose SHA-256 is a stored key's (keys of earlier seeds, of which
 * the database keeps only the hash). Both searches run on the text and on its decoded form
 * (decodeKeyText: `%5F`, `\u005f`, `\/`); a key found only in the decoded form leaves the decoded
 * text, redacted, in the log. Costly (a hash per run): the log calls it once per entry, when read.
 */
export class LogRedactor {
  private readonly clear: string[];

  constructor(
    secrets: readonly string[],
    private readonly keyHashes: ReadonlySet<string>,
  ) {
    // Longest first, so a key inside another is not left half-replaced.
    this.clear = [...new Set(secrets)].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  }

  private plain(input: string): string {
    let out = input;
    for (const secret of this.clear) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out.replace(CANDIDATE, (run) => (this.keyHashes.has(sha256(run).toString('hex')) ? REDACTED : run));
  }

  text(input: string): string {
    const clean = this.plain(input);
    const decoded = decodeKeyText(clean);
    if (decoded === clean) return clean;
    const decodedClean = this.plain(decoded);
    return decodedClean === decoded ? clean : decodedClean;
  }
}
