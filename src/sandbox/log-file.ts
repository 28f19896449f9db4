/**
 * The request log's file (`sandbox serve --log-file`, the library's `logStream`): every entry as it
 * is logged, one JSON object a line (NDJSON), with its headers and bodies, redacted by the request
 * log's one redaction (requestlog.ts, redact.ts). Off the request path: logging an entry only notes
 * it; the notes of a turn of the event loop are redacted and written together after the turn, to a
 * stream whose writes Node does in the background. close() writes what is noted and ends the
 * stream, so a stop (SIGTERM) loses no entry. The entry's shape is the request log's (LogEntry):
 * what the log learns to keep, the file holds.
 */
import type { LogEntry } from '../schemas/sandbox-admin.js';
import type { RequestLog } from './requestlog.js';

/** Where the lines go: a node:stream Writable (`fs.createWriteStream`) is one. Plain, so the library's types need no @types/node. */
export interface LogSink {
  write(chunk: string): unknown;
  /** Node calls `callback` with the error when a write failed (before it emits 'error'). */
  end(callback: (err?: Error | null) => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
}

/** The log file could not be written (disk full, a pipe's reader gone): named by close(). */
export class LogFileError extends Error {
  override readonly name = 'LogFileError';
}

export class LogFileWriter {
  private noted: Array<() => LogEntry> = [];
  private scheduled = false;
  private failure: Error | undefined;
  private ending: Promise<void> | undefined;

  constructor(
    log: RequestLog,
    private readonly sink: LogSink,
    private readonly schedule: (write: () => void) => void = (write) => setImmediate(write),
  ) {
    sink.once('error', (err) => (this.failure = err));
    log.onAdd((read) => this.note(read));
  }

  private note(read: () => LogEntry): void {
    // Once ended, nothing more can be written; the stop that ended it waits for no later answer.
    if (this.ending !== undefined || this.failure !== undefined) return;
    this.noted.push(read);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.write());
  }

  private write(): void {
    this.scheduled = false;
    const batch = this.noted;
    if (batch.length === 0 || this.failure !== undefined) return;
    this.noted = [];
    let lines = '';
    for (const read of batch) lines += `${JSON.stringify(read())}\n`;
    this.sink.write(lines);
  }

  /** Writes the entries noted so far and ends the stream; rejects with a LogFileError when a write failed. */
  close(): Promise<void> {
    this.ending ??= new Promise<void>((resolve, reject) => {
      this.write();
      const failed = (err: Error) => reject(new LogFileError(`the request log file could not be written: ${err.message}`));
      if (this.failure !== undefined) {
        failed(this.failure);
        return;
      }
      this.sink.once('error', failed);
      this.sink.end((err) => {
        const failure = err ?? this.failure;
        if (failure === undefined || failure === null) resolve();
        else failed(failure);
      });
    });
    return this.ending;
  }
}
