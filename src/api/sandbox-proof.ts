/**
 * Before the admin token goes to a loopback sandbox, the listener proves it holds it
 * (schemas/admin-proof.ts); the token is then sent only to the address that proved it. A name
 * (`localhost`) is tried at each of its loopback addresses in the order the resolver gives them.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request } from 'node:http';
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';
import { ADMIN_PROOF_PATH, adminProof } from '../schemas/admin-proof.js';
import { isLoopbackHost, unbracketed } from '../schemas/host.js';

/** The largest proof answer read (a proof is a few dozen bytes of JSON). */
const MAX_ANSWER_BYTES = 4096;

/** The proof the listener at `address`:`port` gives for `nonce`; undefined when it gives none (no answer, not JSON, an error). */
function askProof(address: string, port: number, hostHeader: string, nonce: string, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: address, port, path: `${ADMIN_PROOF_PATH}?nonce=${nonce}`, headers: { host: hostHeader }, signal, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) req.destroy();
        else chunks.push(chunk);
      });
      res.on('end', () => {
        try {
          const proof = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { proof?: unknown } }).data?.proof;
          resolve(res.statusCode === 200 && typeof proof === 'string' ? proof : undefined);
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * The base URL pinned to the loopback address whose listener proved it holds `token`
 * (`http://localhost:8787/t/a` → `http://127.0.0.1:8787/t/a`). Throws a UsageError naming --base-url when
 * none does: whatever listens there is not the sandbox the token is for, and nothing was sent to it.
 */
export async function provenBaseUrl(baseUrl: string, token: string, opts: { timeoutMs: number; signal: AbortSignal }): Promise<string> {
  const url = new URL(baseUrl);
  const host = unbracketed(url.hostname);
  const port = url.port === '' ? 80 : Number(url.port);
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address).filter((a) => isLoopbackHost(a));
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  for (const address of addresses) {
    const nonce = randomBytes(24).toString('base64url');
    const proof = await askProof(address, port, url.host, nonce, signal);
    opts.signal.throwIfAborted();
    // The path stays: a tenant's base URL (…/t/<name>) is pinned with it.
    if (proof === adminProof(token, nonce, address, port)) return `${url.protocol}//${isIP(address) === 6 ? `[${address}]` : address}:${port}${url.pathname.replace(/\/+$/, '')}`;
  }
  throw new UsageError(
    `the server at ${url.origin} did not prove it holds the sandbox's admin token, so the token was not sent: is the sandbox still running on that port, or is another process listening there? Give --base-url the URL \`parcels sandbox serve\` printed`,
    '--base-url',
  );
}
