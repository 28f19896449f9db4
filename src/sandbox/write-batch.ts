import type { Repository } from './store/types.js';

interface Pending<T> {
  work: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A failure that undid the whole group's transaction; `cause` is the error of the write that met it. */
export class GroupAbortedError extends Error {
  override readonly name = 'GroupAbortedError';

  constructor(cause: unknown) {
    super('the transaction of this group of writes was rolled back', { cause });
  }
}

/**
 * Group commit for write requests. A write whose body is in is queued; once per turn of the event
 * loop (setImmediate) every queued write runs inside one BEGIN IMMEDIATE transaction, each in its
 * own nested transaction (a savepoint: one that throws rolls back alone), and all of them are
 * settled after that one COMMIT. A create commits about six pages; writes committed together share
 * the pages they have in common (the tables' last pages, the indexes' hot ones) and one commit.
 *
 * Correctness does not depend on how writes happen to be grouped: each write is atomic (its
 * savepoint runs under the write lock, so its reads, checks and writes see no other process's
 * change in between), runs in arrival order, and is answered only once the commit that holds it is
 * durable. If that commit fails, nothing of the group was written and every write of it fails.
 */
export class WriteBatcher<T> {
  private queue: Array<Pending<T>> = [];

  constructor(
    private readonly repo: Pick<Repository, 'transaction' | 'inTransaction'>,
    private readonly schedule: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {}

  /** Runs `work` in its own savepoint of the next group; settles after that group's commit. */
  run(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (this.queue.length === 1) this.schedule(() => this.flush());
    });
  }

  /** Commits every queued write now (also on close, so no queued write is left behind). */
  flush(): void {
    const group = this.queue;
    if (group.length === 0) return;
    this.queue = [];
    const results: Array<{ ok: true; value: T } | { ok: false; error: unknown }> = [];
    try {
      this.repo.transaction(() => {
        for (const pending of group) {
          try {
            results.push({ ok: true, value: this.repo.transaction(pending.work) });
          } catch (error) {
            // Some SQLite errors (a full disk, an I/O error) roll back the whole transaction, not
            // only the failed write's savepoint: then nothing of the group stands.
            if (!this.repo.inTransaction()) throw new GroupAbortedError(error);
            results.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const pending of group) pending.reject(error);
      return;
    }
    group.forEach((pending, i) => {
      const result = results[i] as (typeof results)[number];
      if (result.ok) pending.resolve(result.value);
      else pending.reject(result.error);
    });
  }
}
