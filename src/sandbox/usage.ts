import type { Repository, UsageEntry } from './store/types.js';

/**
 * The usage writer, kept apart from the request path: one row per answered request, buffered and
 * written as plain INSERTs in one transaction every `intervalMs` (or at 512 rows, before this
 * process reads usage, and on close). Only usage rows wait here, never a parcel write; a crash
 * loses at most the last interval's rows (see docs/sandbox.md).
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
    this.repo.insertUsage(batch);
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
