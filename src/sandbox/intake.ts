import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OwnRoute } from './routes.js';

/** A request as it was taken in: its exchange and the elapsed time it arrived at. */
export interface Arrived {
  req: IncomingMessage;
  res: ServerResponse;
  /** Elapsed time (the clock's elapsedMs) when the request was read. */
  arrivedMs: number;
  /** The sandbox's own route it asks for (routes.ts); undefined for the API's routes. */
  route: OwnRoute | undefined;
}

/**
 * One change check for the requests read in one turn of the event loop. Node reads every socket
 * that is ready (each until it is empty) and parses the requests in it before it runs the turn's
 * setImmediate callbacks; the requests are held until then, the check is made once, and they are
 * served in arrival order with its answer.
 *
 * Correctness does not depend on how requests happen to be grouped: a request is served only after
 * a check made after it was read, so it sees every commit made before it was sent, exactly as with
 * a check of its own. (A check made when a turn *starts* would not do: a request read later in that
 * turn may have been sent after a commit the check did not see.) A request waits at most for the
 * rest of its turn's reads.
 */
export class RequestIntake<V> {
  private queue: Arrived[] = [];

  constructor(
    /** The change check (the repository's dataVersion, or undefined if it failed). */
    private readonly check: () => V,
    /** Serves one request with the batch's check; never throws (failures are answers). */
    private readonly serve: (request: Arrived, version: V) => void,
    private readonly schedule: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {}

  /** Holds a request until its turn's batch is served. */
  accept(request: Arrived): void {
    this.queue.push(request);
    if (this.queue.length === 1) this.schedule(() => this.flush());
  }

  /** Serves every held request now, after one check (also on close, so no read request is left behind). */
  flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const version = this.check();
    for (const request of batch) this.serve(request, version);
  }
}
