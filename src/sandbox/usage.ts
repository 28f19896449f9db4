import type { Repository, UsageEntry } from './store/types.js';

/**
 * The usage writer, kept apart from the request path: answered requests are buffered and added to
 * the daily totals and the latest-requests ring in one transaction every `intervalMs` (or at 512
 * requests, before this process reads usage, and on close). Only usage waits here, never a parcel
 * write; a crash loses at most the last interval's requests (see docs/sandbox.md).
 */
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
    if (this.buffer.length >= 512) this.flush();
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
