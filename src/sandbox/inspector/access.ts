/**
 * Who may use the web inspector: one-time login codes (made for the banner and `parcels sandbox ui`)
 * and the sessions they are exchanged for. A session is two secrets, both needed: the cookie's (which
 * the browser also sends to every other port of the host) and the page key (which only a page of the
 * sandbox's own origin can read back from its storage). Only SHA-256 digests are kept, in memory: a
 * restart ends every session. Lifetimes run on elapsed time, so moving the test clock never logs anyone out.
 */
import { randomBytes } from 'node:crypto';
import { INSPECTOR_SECRET } from '../../schemas/inspector.js';
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

const secret = (): string => randomBytes(24).toString('base64url');
/** A session's key in the store: its cookie secret and its page key together. */
const sessionOf = (cookie: string, pageKey: string): string => `${cookie}.${pageKey}`;

export class InspectorAccess {
  private readonly codes = new Expiring();
  private readonly sessions = new Expiring();

  constructor(private readonly elapsedMs: () => number) {}

  /** A new one-time login code. */
  issueCode(): { code: string; expiresInS: number } {
    const code = secret();
    this.codes.add(code, this.elapsedMs() + LOGIN_CODE_TTL_MS);
    return { code, expiresInS: LOGIN_CODE_TTL_MS / 1000 };
  }

  /** Uses up the code; a new session's two secrets when the code was good, else undefined. */
  redeem(code: string): { cookie: string; pageKey: string } | undefined {
    if (!INSPECTOR_SECRET.test(code) || !this.codes.has(code, this.elapsedMs(), true)) return undefined;
    const session = { cookie: secret(), pageKey: secret() };
    this.sessions.add(sessionOf(session.cookie, session.pageKey), this.elapsedMs() + SESSION_TTL_MS);
    return session;
  }

  /** Whether the page key and one of the presented cookie secrets are together a live session. */
  admits(cookies: readonly string[], pageKey: string | undefined): boolean {
    if (pageKey === undefined || !INSPECTOR_SECRET.test(pageKey)) return false;
    const now = this.elapsedMs();
    return cookies.some((cookie) => INSPECTOR_SECRET.test(cookie) && this.sessions.has(sessionOf(cookie, pageKey), now, false));
  }
}
