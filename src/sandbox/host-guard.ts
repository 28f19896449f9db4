/**
 * Which Host headers a listener answers. A page on another site can make a browser send requests
 * to a loopback sandbox under a name of its own (DNS rebinding: evil.example resolving to
 * 127.0.0.1) and read the answers as same-origin. So a loopback listener answers only for
 * loopback names (localhost, 127.x.x.x, ::1), its bound address and the names given to it
 * (--allowed-hosts), on its own port or without one; any other Host gets 403 host_not_allowed.
 * A listener on any other address is reachable by other machines under any name: it allows all.
 */
import { isLoopbackHost, unbracketed } from '../schemas/host.js';

/** `name`, `name:port`, `[v6]` or `[v6]:port`. */
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

export interface HostGuard {
  /** Whether a request with this Host header (undefined: none sent, as HTTP/1.0 allows) is answered. */
  allows(host: string | undefined): boolean;
}

const ALLOW_ALL: HostGuard = { allows: () => true };

/** The guard of a listener bound to `bound` (bare address) on `port`, with the extra names `allowed`. */
export function hostGuard(bound: string, port: number, allowed: readonly string[]): HostGuard {
  if (!isLoopbackHost(bound)) return ALLOW_ALL;
  const names = new Set(allowed.map((n) => unbracketed(n).toLowerCase()));
  names.add(unbracketed(bound).toLowerCase());
  // The spellings clients use, precomputed so the usual request costs one lookup.
  const usual = new Set<string>();
  for (const name of ['localhost', '127.0.0.1', '[::1]', bound.includes(':') ? `[${bound}]` : bound, ...[...names].map((n) => (n.includes(':') ? `[${n}]` : n))]) {
    usual.add(name);
    usual.add(`${name}:${port}`);
  }
  return {
    allows(host) {
      if (host === undefined || usual.has(host)) return true;
      const parts = HOST_HEADER.exec(host.toLowerCase());
      if (parts === null) return false;
      if (parts[2] !== undefined && Number(parts[2]) !== port) return false;
      const name = unbracketed(parts[1] as string);
      return names.has(name) || isLoopbackHost(name);
    },
  };
}
