import type { Repository, UsageEntry } from './store/types.js';

/**
 * Records one usage row per authenticated request. Rows are buffered in memory and written in one
 * transaction every `intervalMs` (or at 512 rows, before a usage read, and on close), so the
 * accounting costs the hot path only an array push.
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
