/**
 * How a stopping sandbox tells those following its request log: the waiting log requests are
 * answered (`stopping: true`, admin.ts) and written out, and each connection that follows the log
 * (`sandbox logs --follow`, which always sends `wait`) gets to ask once more and hear the same,
 * before the listener drops its connections. A client that does not read its answer, or a
 * follower that does not ask again, holds the stop up for STOP_WRITE_MS at most.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { anyRouteByName } from '../schemas/routes.js';

/** The longest a stop waits for the last admin answers to be written and followers told. */
const STOP_WRITE_MS = 1000;

const LOGS_QUERY = `${anyRouteByName('sandbox.logs.list').path}?`;

/** A follower's request for the log: `GET /_sandbox/v1/logs?…wait=…` (`sandbox logs --follow` sends `wait=0` first). */
function isFollowRequest(url: string): boolean {
  return url.startsWith(LOGS_QUERY) && /[?&]wait=/.test(url);
}

export class StopNotice {
  /** Admin answers handed to the socket but not yet written out. */
  private readonly unwritten = new Set<Promise<void>>();
  private readonly followers = new Set<Socket>();
  private followersGone: (() => void) | undefined;

  constructor(private readonly closing: AbortController) {}

  private unfollow(socket: Socket): void {
    this.followers.delete(socket);
    if (this.followers.size === 0) this.followersGone?.();
  }

  /** An admin request arrived. */
  arrived(req: IncomingMessage): void {
    const socket = req.socket;
    if (!isFollowRequest(req.url ?? '') || this.followers.has(socket)) return;
    this.followers.add(socket);
    socket.once('close', () => this.unfollow(socket));
  }

  /** An admin request was answered (its answer handed to `res`). */
  answered(req: IncomingMessage, res: ServerResponse): void {
    // A follower told the sandbox stops needs no more waiting for.
    if (this.closing.signal.aborted) this.unfollow(req.socket);
    if (res.writableFinished) return;
    const written = new Promise<void>((done) => res.once('close', done).once('finish', done));
    this.unwritten.add(written);
    void written.then(() => this.unwritten.delete(written));
  }

  /** Aborts `closing` (waiting log requests answer) and resolves once they are written and followers told. */
  async stop(): Promise<void> {
    this.closing.abort();
    // The waiting log requests answer within this turn.
    await new Promise<void>((next) => setImmediate(next));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((done) => (timer = setTimeout(done, STOP_WRITE_MS).unref()));
    const told = this.followers.size === 0 ? Promise.resolve() : new Promise<void>((done) => (this.followersGone = done));
    await Promise.race([Promise.all([...this.unwritten, told]), bound]);
    clearTimeout(timer);
  }
}
