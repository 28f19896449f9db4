import type { Repository, UsageEntry } from './store/types.js';

/**
 * The usage writer, kept apart from the request path: answered requests are buffered and added to
 * the daily totals and the latest-requests ring in one transaction every `intervalMs` (or at 4096
 * requests, before this process reads usage, and on close). Only usage waits here, never a parcel
 * write; a crash loses at most the last interval's requests (see docs/sandbox.md).
 */
/**
 * Requests buffered at most between two timed flushes. A flush writes at most the ring's 100 rows
 * whatever its size, so the fewer flushes the less each request costs: this bound only caps memory
 * (~0.5 MB) and is reached at over 80 000 requests a second.
 */
const MAX_BUFFERED = 4096;

export class UsageRecorder {
  private buffer: UsageEntry[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repo: Repository,
    intervalMs = 50,
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  record(entry: UsageEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= MAX_BUFFERED) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.repo.recordUsage(batch);
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
