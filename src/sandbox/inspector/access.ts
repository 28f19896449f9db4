/**
 * Who may use the web inspector: one-time login codes (made for the banner and `parcels sandbox ui`)
 * and the sessions they are exchanged for. Only SHA-256 digests are kept, in memory: a restart ends
 * every session. Lifetimes run on elapsed time, so moving the test clock never logs anyone out.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from '../hash.js';

/** An unused login code works this long (ms). */
export const LOGIN_CODE_TTL_MS = 60 * 60_000;
/** A session lasts this long after login (ms). */
export const SESSION_TTL_MS = 24 * 60 * 60_000;
/** Codes and sessions kept at most each; the oldest goes first, so memory stays bounded. */
const MAX_KEPT = 64;

/** A secret's digest, as a map key. */
const digest = (secret: string): string => sha256(secret).toString('base64url');

class Expiring {
  /** digest → expiry (elapsed ms), oldest first (a Map keeps insertion order). */
  private readonly items = new Map<string, number>();

  add(secret: string, expiresMs: number): void {
    if (this.items.size >= MAX_KEPT) this.items.delete(this.items.keys().next().value as string);
    this.items.set(digest(secret), expiresMs);
  }

  /** Whether the secret is known and unexpired; `take` forgets it either way. */
  has(secret: string, nowMs: number, take: boolean): boolean {
    const key = digest(secret);
    const expires = this.items.get(key);
    if (take || (expires !== undefined && expires <= nowMs)) this.items.delete(key);
    return expires !== undefined && expires > nowMs;
  }
}

/** Secrets are base64url of 24 random bytes; anything else is refused before a lookup. */
const SECRET = /^[A-Za-z0-9_-]{32}$/;

export class InspectorAccess {
  private readonly codes = new Expiring();
  private readonly sessions = new Expiring();

  constructor(private readonly elapsedMs: () => number) {}

  /** A new one-time login code. */
  issueCode(): { code: string; expiresInS: number } {
    const code = randomBytes(24).toString('base64url');
    this.codes.add(code, this.elapsedMs() + LOGIN_CODE_TTL_MS);
    return { code, expiresInS: LOGIN_CODE_TTL_MS / 1000 };
  }

  /** Uses up the code; a new session's secret when the code was good, else undefined. */
  redeem(code: string): string | undefined {
    if (!SECRET.test(code) || !this.codes.has(code, this.elapsedMs(), true)) return undefined;
    const session = randomBytes(24).toString('base64url');
    this.sessions.add(session, this.elapsedMs() + SESSION_TTL_MS);
    return session;
  }

  /** Whether one of the presented session secrets is a live session. */
  admits(presented: readonly string[]): boolean {
    const now = this.elapsedMs();
    return presented.some((s) => SECRET.test(s) && this.sessions.has(s, now, false));
  }
}
