/**
 * Host forms, in one place for the sandbox and the CLI: an IPv6 address may come bracketed
 * (`[::1]`, as in a URL) or bare (`::1`, as `listen` wants it), and loopback has many spellings
 * (`localhost`, 127.0.0.0/8, `::1`, and IPv4-mapped `::ffff:127.0.0.1`, which a URL normalises to
 * `[::ffff:7f00:1]`). Whatever is loopback to the sandbox's admin route is loopback to the CLI.
 */

/** `[::1]` → `::1`; anything else unchanged. */
export function unbracketed(host: string): string {
  return /^\[.*\]$/.test(host) ? host.slice(1, -1) : host;
}

/** True for localhost, 127.x.x.x, ::1 and IPv4-mapped 127.x.x.x, in any of their spellings (bracketed or not). */
export function isLoopbackHost(host: string): boolean {
  const bare = unbracketed(host).toLowerCase();
  if (bare === 'localhost' || bare === 'localhost.') return true;
  let normal: string;
  try {
    // The URL parser writes every form of an address one way (`127.1` → `127.0.0.1`, `0:0::1` → `[::1]`).
    normal = unbracketed(new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname);
  } catch {
    return false;
  }
  if (/^127\.\d+\.\d+\.\d+$/.test(normal) || normal === '::1') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(normal);
  return mapped !== null && parseInt(mapped[1] as string, 16) >> 8 === 127;
}

/** The host of a URL is loopback (false for a URL that does not parse). */
export function isLoopbackUrl(url: string | undefined): boolean {
  return url !== undefined && URL.canParse(url) && isLoopbackHost(new URL(url).hostname);
}
